import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes `--data-dir` private to the server's user, as etcd does with its data directory: the directory (and any
 * below it) 0700 and every file in it 0600 (database, WAL, keys, certificates, kubeconfig), whatever existed
 * before. Called at start, and again once the database is open (SQLite creates its WAL and shared-memory files with
 * the database file's mode, but the database file itself with the process umask).
 */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tighten = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
      for (const name of readdirSync(path)) unlessGone(() => tighten(join(path, name)));
    } else if ((stat.mode & 0o777) !== 0o600) {
      chmodSync(path, 0o600);
    }
  };
  tighten(dir);
}

/**
 * Runs `fn`, ignoring a file that is gone by then: the start writes certificates beside this sweep (each to a
 * temporary file renamed over the target, on libuv's threads), so an entry listed a moment ago may have moved.
 */
function unlessGone(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
