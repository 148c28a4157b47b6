import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { chmod, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secureDataDir } from '../src/data-dir.js';

describe('secureDataDir', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-data-dir-'));
    dirs.push(dir);
    return dir;
  };

  it('makes the directory 0700 and its files 0600', () => {
    const dir = newDir();
    writeFileSync(join(dir, 'ca.crt'), 'x', { mode: 0o644 });
    secureDataDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'ca.crt')).mode & 0o777).toBe(0o600);
  });

  it('does not fail on files that a concurrent atomic write renames away while it sweeps', async () => {
    // The start writes certificates as the sample server does (a temporary file, chmod, rename over the target) on
    // libuv's threads while the sweep runs on the main thread: a listed temporary file may be gone a moment later.
    const dir = newDir();
    let stop = false;
    let writes = 0;
    const writer = async (i: number) => {
      while (!stop) {
        const file = join(dir, `f${i}.crt`);
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, 'x', { mode: 0o644 });
        await chmod(tmp, 0o644);
        await rename(tmp, file);
        writes++;
      }
    };
    const writers = Array.from({ length: 8 }, (_, i) => writer(i));
    let sweeps = 0;
    try {
      for (const until = Date.now() + 1000; Date.now() < until; sweeps++) {
        secureDataDir(dir);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    expect(sweeps).toBeGreaterThan(100);
    expect(writes).toBeGreaterThan(100);
  });
});
