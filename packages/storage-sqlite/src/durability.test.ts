import { isStorageError, type StorageBackend, type StorageWatchEvent } from '@kapi/storage';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteBackend } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'kapi-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(root, `t${++n}`, 'kapi.db');

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const key = (i: number) => `/registry/configmaps/ns/cm-${String(i).padStart(6, '0')}`;

describe('sqlite backend on disk', () => {
  it('keeps data, revisions and the compacted revision across close and reopen', async () => {
    const path = freshPath();
    let s: StorageBackend = createSqliteBackend({ path });
    await s.create(key(1), bytes('a1'));
    await s.update(key(1), bytes('a2'), 1);
    await s.create(key(2), bytes('b1'));
    await s.delete(key(2));
    await s.compact(3);
    await s.close();

    s = createSqliteBackend({ path });
    expect(await s.currentRevision()).toBe(4);
    expect(await s.compactedRevision()).toBe(3);
    const got = await s.get(key(1));
    expect([text(got.kv!.value), got.kv!.createRevision, got.kv!.modRevision]).toEqual(['a2', 1, 2]);
    expect(await s.get(key(2))).toEqual({ revision: 4 });
    await expect(s.get(key(1), { revision: 2 })).rejects.toMatchObject({ code: 'Compacted', compactedRevision: 3 });
    // Revisions continue upward after a restart, also after the newest row was compacted away.
    expect((await s.create(key(3), bytes('c1'))).modRevision).toBe(5);
    await s.close();
  });

  it('continues revisions after compaction removed the newest rows', async () => {
    const path = freshPath();
    let s = createSqliteBackend({ path });
    await s.create(key(1), bytes('x'));
    await s.delete(key(1));
    await s.create(key(2), bytes('y'));
    await s.delete(key(2));
    await s.compact(4);
    await s.close();
    s = createSqliteBackend({ path });
    expect(await s.currentRevision()).toBe(4);
    expect((await s.create(key(1), bytes('z'))).modRevision).toBe(5);
    await s.close();
  });

  it('refuses a second opener of the same database while the first holds it', async () => {
    const path = freshPath();
    const s = createSqliteBackend({ path });
    await s.create(key(1), bytes('x'));
    expect(() => createSqliteBackend({ path })).toThrow(/in use by another process/);
    await s.close();
    const again = createSqliteBackend({ path });
    expect(await again.count('/registry/')).toBe(1);
    await again.close();
  });

  it('stores one row per change as the README documents the schema', async () => {
    const path = freshPath();
    const s = createSqliteBackend({ path });
    await s.create(key(1), bytes('v1'));
    await s.update(key(1), bytes('v2'), 1);
    await s.delete(key(1));
    await s.create(key(1), bytes('v3'));
    await s.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT * FROM kapi_log ORDER BY id').all() as Record<string, unknown>[];
    db.close();
    const show = (b: unknown) => (b === null ? null : text(b as Buffer));
    expect(rows.map((r) => [r.id, r.name, r.created, r.deleted, r.create_revision, r.prev_revision, show(r.value), show(r.old_value)])).toEqual([
      [1, key(1), 1, 0, 1, 0, 'v1', null],
      [2, key(1), 0, 0, 1, 1, 'v2', 'v1'],
      [3, key(1), 0, 1, 1, 2, null, 'v2'],
      [4, key(1), 1, 0, 4, 3, 'v3', null],
    ]);
  });

  it('returns stored bytes that are not valid JSON or UTF-8 unchanged', async () => {
    const s = createSqliteBackend({ path: freshPath() });
    const raw = new Uint8Array([0x7b, 0x22, 0xff, 0x00, 0xfe]);
    await s.create(key(1), raw);
    expect([...(await s.get(key(1))).kv!.value]).toEqual([...raw]);
    expect([...(await s.list({ prefix: '/registry/' })).kvs[0].value]).toEqual([...raw]);
    await s.close();
  });

  it('delivers every event in order to a watcher that fell far behind, reading the backlog from the table', async () => {
    const s = createSqliteBackend({ path: freshPath() });
    const events: StorageWatchEvent[] = [];
    let resolveDone: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const total = 25_000;
    s.watch(
      { prefix: '/registry/configmaps/', afterRevision: 0 },
      {
        onEvent(e) {
          events.push(e);
          if (events.length === total) resolveDone();
        },
        onError: (err) => {
          throw err;
        },
      },
    );
    // Submitted in one turn: committed in batches back to back, faster than the watcher drains.
    const writes = Array.from({ length: total }, (_, i) => s.create(key(i), bytes(String(i))));
    await Promise.all(writes);
    await done;
    expect(events.length).toBe(total);
    expect(events.every((e, i) => e.kv.modRevision === i + 1 && e.kv.key === key(i))).toBe(true);
    await s.close();
  });

  it('compacts a long history in windows and keeps serving the state at and after the compacted revision', async () => {
    const path = freshPath();
    const s = createSqliteBackend({ path });
    const heads = new Map<string, number>();
    for (let round = 0; round < 120; round++) {
      // 100 keys written per round, all in one batch.
      const written = await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const head = heads.get(key(i));
          return head ? s.update(key(i), bytes(`v${round}`), head) : s.create(key(i), bytes(`v${round}`));
        }),
      );
      for (const kv of written) heads.set(kv.key, kv.modRevision);
    }
    expect(await s.currentRevision()).toBe(12_000);
    const before = await s.list({ prefix: '/registry/', revision: 11_950 });
    await s.compact(11_950);
    const after = await s.list({ prefix: '/registry/', revision: 11_950 });
    expect(after.kvs.map((x) => [x.key, text(x.value), x.modRevision])).toEqual(before.kvs.map((x) => [x.key, text(x.value), x.modRevision]));
    expect(after.kvs.length).toBe(100);
    await expect(s.get(key(0), { revision: 11_949 })).rejects.toSatisfy((e) => isStorageError(e, 'Compacted'));
    await s.close();
    // Left: each key's row as of 11950 and every row from 11950 on.
    const db = new Database(path, { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM kapi_log').get() as { n: number }).n).toBe(150);
    db.close();
  });
});

// A writer process killed with SIGKILL mid-stream: every write it saw acknowledged is in the database after.
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
describe.skipIf(!existsSync(dist))('sqlite backend and kill -9 (needs the package built)', () => {
  it('keeps every acknowledged write', async () => {
    const path = freshPath();
    const script = `
      const { createSqliteBackend } = await import(${JSON.stringify(dist)});
      const s = createSqliteBackend({ path: ${JSON.stringify(path)} });
      const enc = new TextEncoder();
      let i = 0;
      const one = async () => {
        for (;;) {
          const k = '/registry/configmaps/ns/cm-' + String(i++).padStart(6, '0');
          const kv = await s.create(k, enc.encode(k));
          process.stdout.write(k + ' ' + kv.modRevision + '\\n');
        }
      };
      for (let w = 0; w < 8; w++) one();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked = new Map<string, number>();
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const [k, rev] = line.split(' ');
          acked.set(k, Number(rev));
        }
        if (acked.size >= 3000 && child.exitCode === null) child.kill('SIGKILL');
      });
      child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited without being killed (${signal})`))));
    });
    const s = createSqliteBackend({ path });
    for (const [k, rev] of acked) {
      const got = await s.get(k);
      expect([k, got.kv?.modRevision]).toEqual([k, rev]);
    }
    const current = await s.currentRevision();
    expect(current).toBeGreaterThanOrEqual(Math.max(...acked.values()));
    expect((await s.create('/registry/configmaps/ns/after', bytes('x'))).modRevision).toBe(current + 1);
    await s.close();
  });
});
