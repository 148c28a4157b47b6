import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './groups.js';

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts the built `kapi-server` as a separate process on a free port and waits for its listening line. */
export function startServerProcess(args: string[] = []): Promise<ServerProcess> {
  const main = join(repoRoot, 'apps/server/dist/main.js');
  const child: ChildProcess = spawn(process.execPath, [main, '--secure-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kapi-server did not start:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kapi-server exited with ${code}:\n${output}`));
    });
  });
}
