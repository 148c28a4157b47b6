import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput, freePort, signalAndWait, waitForReady } from '@kapi/storage-etcd/testing';
import { repoRoot } from './groups.js';

export interface ServerProcess {
  /** The first URL the server said it listens on. */
  url: string;
  dataDir: string;
  /** The admin kubeconfig the server wrote. */
  kubeconfig: string;
  output(): string;
  /** SIGTERM; resolves with the exit code once the process exited (at once if it already had). */
  stop(): Promise<number | null>;
  /** Sends `signal` (default SIGKILL: a crash) and resolves once the process exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartServerOptions {
  /** Reuse this data directory (a restart) instead of a fresh one. */
  dataDir?: string;
  /** Another server binary built from the same plugins, relative to the repository (`apps/wardle-server/dist/main.js`). */
  binary?: string;
}

/** A free TCP port on the loopback interface (shared with the etcd test helpers). */
export { freePort };

/**
 * Starts the built `kapi-server` (apps/server/dist/main.js) as its own process, on a free HTTPS port unless the
 * args say otherwise, with a fresh data directory (or `options.dataDir`); resolves once it logs where it listens.
 * Its storage is the server's default (SQLite in the data directory) unless the args choose another.
 */
export async function startServerProcess(args: string[] = [], options: StartServerOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kapi-e2e-'));
  const main = join(repoRoot, options.binary ?? 'apps/server/dist/main.js');
  const name = options.binary ? options.binary.split('/')[1] : 'kapi-server';
  const portArgs = args.some((a) => a.startsWith('--secure-port')) ? [] : ['--secure-port', String(await freePort())];
  const child: ChildProcess = spawn(process.execPath, [main, '--data-dir', dataDir, ...portArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  const listening = () => /listening on (https?:\/\/\S+)/.exec(output())?.[1];
  let listenedAt = 0;
  const ready = () => {
    if (!listening()) return false;
    // The admin kubeconfig is written right after the server listens: wait for its line (briefly).
    listenedAt ||= Date.now();
    return !!options.binary || output().includes('admin kubeconfig') || Date.now() - listenedAt >= 3000;
  };
  await waitForReady(child, ready, { what: name, timeoutMs: 30_000, output });
  return {
    url: listening()!.replace(/[)(,]+$/, ''),
    dataDir,
    kubeconfig: join(dataDir, 'admin.kubeconfig'),
    output,
    stop: () => signalAndWait(child, 'SIGTERM'),
    kill: (signal = 'SIGKILL') => signalAndWait(child, signal).then(() => {}),
  };
}
