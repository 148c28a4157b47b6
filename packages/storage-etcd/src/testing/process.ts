// Helpers for tests and tools that run a real process (etcd, kapi-server) and wait until it is ready. They live
// here, in the lowest package that runs one, so that its dependents (the e2e tests, the sample server's tests and
// the benchmarks) use the same ones.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Collects what `child` prints on stdout and stderr, as it arrives. With `keepChars`, a long-running process keeps
 * only about its last `keepChars` characters.
 */
export function captureOutput(child: ChildProcess, keepChars = Infinity): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2 * keepChars) output = output.slice(-keepChars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

export interface WaitForReadyOptions {
  /** Names the process in errors. */
  what: string;
  /** How long it may take, ms; then the process is killed. */
  timeoutMs: number;
  /** What the process printed so far, for the errors. */
  output: () => string;
  /** Time between two checks, ms. Default 20. */
  intervalMs?: number;
}

/**
 * Resolves once `ready()` holds (a check that throws counts as not ready yet), checking while `child` runs.
 * Rejects with what it printed when it exits first, or when `timeoutMs` passes, killing it then (SIGKILL).
 */
export async function waitForReady(
  child: ChildProcess,
  ready: () => boolean | Promise<boolean>,
  { what, timeoutMs, output, intervalMs = 20 }: WaitForReadyOptions,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`${what} exited during start:\n${output()}`);
    if (await Promise.resolve().then(ready).catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${output()}`);
}

/** Sends `signal` (default SIGTERM) and resolves with the exit code once `child` exited (at once if it had). */
export function signalAndWait(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (hasExited(child)) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;
