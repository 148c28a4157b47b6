import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built package, as a user's test process imports it. */
export const INDEX = join(import.meta.dirname, '..', 'dist', 'index.js');

/**
 * Runs `script` (an ES module's body) in a fresh Node process with `cacheDir` as KAPI_TESTING_CACHE_DIR, as a user's
 * next test process; resolves with what it wrote to stdout, rejects with its stderr when it fails.
 */
export function runTestProcess(script: string, cacheDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, KAPI_TESTING_CACHE_DIR: cacheDir } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`test process exited ${code}: ${err}`))));
  });
}
