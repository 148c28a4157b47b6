import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RotatingFile } from '../src/audit-file.js';

const line = (i: number) => `${JSON.stringify({ i, pad: 'x'.repeat(1000) })}\n`;
const BACKUP = /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/;

describe('RotatingFile (--audit-log-maxsize, -maxbackup, -maxage)', () => {
  it('rotates before a write would pass the size, names backups as lumberjack does, keeps maxbackup of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-audit-'));
    const errors: Error[] = [];
    const file = new RotatingFile(join(dir, 'audit.log'), { maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0 }, (e) => errors.push(e));
    // ~1 KB lines: 3,500 of them are 3.4 MiB, four files' worth at 1 MiB each.
    for (let i = 0; i < 3500; i++) file.write(line(i));
    await file.close();
    await new Promise((done) => setTimeout(done, 50));
    expect(errors).toEqual([]);
    const names = readdirSync(dir).sort();
    expect(names.filter((n) => n !== 'audit.log')).toHaveLength(2);
    expect(names.filter((n) => n !== 'audit.log').every((n) => BACKUP.test(n))).toBe(true);
    for (const name of names) {
      expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(1024 * 1024);
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    }
    // The newest lines are in the current file; the kept backups are the two before it, whole lines only.
    const all = names.filter((n) => n !== 'audit.log').concat('audit.log').flatMap((n) => readFileSync(join(dir, n), 'utf8').trimEnd().split('\n'));
    const numbers = all.map((l) => JSON.parse(l).i);
    expect(numbers.at(-1)).toBe(3499);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, k) => 3500 - numbers.length + k));
  });

  it('removes backups older than maxage days by the time in their names, and leaves other files alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-audit-'));
    const old = 'audit-2020-01-01T00-00-00.000.log';
    const recent = `audit-${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 23).replace(/:/g, '-')}.log`;
    for (const name of [old, recent, 'audit-notes.log', 'other.log']) writeFileSync(join(dir, name), 'x\n');
    const file = new RotatingFile(join(dir, 'audit.log'), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 7 }, () => {});
    for (let i = 0; i < 1100; i++) file.write(line(i));
    await file.close();
    const names = readdirSync(dir);
    expect(names).not.toContain(old);
    expect(names).toEqual(expect.arrayContaining([recent, 'audit-notes.log', 'other.log', 'audit.log']));
    expect(names.filter((n) => BACKUP.test(n))).toHaveLength(2); // the recent one and the new rotation
  });
});
