import { isStorageError, type StorageBackend, type StorageWatchEvent } from '@kapi/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdClient } from './client.js';
import { createEtcdBackend } from './index.js';
import { freePort, skipWithoutEtcd, startEtcd, type EtcdProcess } from './testing/index.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Resolves once `ready` returns a value, polling; rejects with the last error after `attempts` tries. */
async function eventually<T>(ready: () => Promise<T>, attempts = 150, delayMs = 100): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await ready();
    } catch (err) {
      last = err;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  throw last;
}

interface Recorded {
  events: StorageWatchEvent[];
  errors: Error[];
  progress: number[];
  stop(): void;
}

function record(s: StorageBackend, prefix: string, afterRevision: number): Recorded {
  const r: Recorded = { events: [], errors: [], progress: [], stop: () => {} };
  const w = s.watch(
    { prefix, afterRevision },
    { onEvent: (e) => r.events.push(e), onError: (e) => r.errors.push(e), onProgress: (rev) => r.progress.push(rev) },
  );
  r.stop = () => w.stop();
  return r;
}

const until = (check: () => boolean) =>
  eventually(async () => {
    if (!check()) throw new Error('not yet');
  });

describe.skipIf(skipWithoutEtcd())('etcd backend against a real etcd', () => {
  let etcd: EtcdProcess;
  beforeAll(async () => {
    etcd = await startEtcd({ progressNotifyInterval: '500ms' });
  });
  afterAll(async () => {
    await etcd?.destroy();
  });

  it('lays keys out under --etcd-prefix as kube-apiserver does, values as the exact bytes given', async () => {
    const s = createEtcdBackend({ endpoints: [etcd.endpoint] });
    const custom = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/kapi-custom/' });
    const raw = new Uint8Array([0x7b, 0xff, 0x00]);
    await s.create('/registry/configmaps/layout/a', raw);
    await custom.create('/registry/apps/deployments/layout/b', bytes('{"b":1}'));

    const client = new EtcdClient({ endpoints: [etcd.endpoint] });
    const all = await client.range({ key: Buffer.from('/'), range_end: Buffer.from('0') });
    const stored = new Map(all.kvs.map((kv) => [kv.key.toString(), [...kv.value]]));
    expect(stored.get('/registry/configmaps/layout/a')).toEqual([0x7b, 0xff, 0x00]);
    expect(stored.get('/kapi-custom/apps/deployments/layout/b')).toEqual([...bytes('{"b":1}')]);
    client.close();

    expect(await custom.count('/registry/')).toBe(1);
    expect([...(await s.get('/registry/configmaps/layout/a')).kv!.value]).toEqual([...raw]);
    await expect(s.create('/elsewhere/x', bytes('x'))).rejects.toMatchObject({ code: 'InvalidObject' });
    await s.close();
    await custom.close();
  });

  it('shares one store between backends: a write through one is seen by a watch on another', async () => {
    const a = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/shared' });
    const b = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/shared' });
    const start = await b.currentRevision();
    const w = record(b, '/registry/pods/', start);
    const created = await a.create('/registry/pods/ns/p', bytes('p1'));
    await a.update('/registry/pods/ns/p', bytes('p2'), created.modRevision);
    await until(() => w.events.length === 2);
    expect(w.events.map((e) => [e.type, e.kv.key, text(e.kv.value), e.created])).toEqual([
      ['PUT', '/registry/pods/ns/p', 'p1', true],
      ['PUT', '/registry/pods/ns/p', 'p2', false],
    ]);
    expect(text((await b.get('/registry/pods/ns/p')).kv!.value)).toBe('p2');
    await expect(b.update('/registry/pods/ns/p', bytes('stale'), created.modRevision)).rejects.toMatchObject({ code: 'Conflict' });
    w.stop();
    await a.close();
    await b.close();
  });

  it('forwards etcd progress notifications to onProgress', async () => {
    const s = createEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/progress' });
    const rev = await s.currentRevision();
    const w = record(s, '/registry/leases/', rev);
    await until(() => w.progress.length > 0);
    expect(w.progress[0]).toBeGreaterThanOrEqual(rev);
    expect(w.events).toEqual([]);
    w.stop();
    await s.close();
  });

  it('fails over to the next endpoint when one is unreachable', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const s = createEtcdBackend({ endpoints: [dead, etcd.endpoint], prefix: '/failover' });
    const kv = await s.create('/registry/secrets/ns/s', bytes('s'));
    expect((await s.get('/registry/secrets/ns/s')).kv?.modRevision).toBe(kv.modRevision);
    await s.close();
  });
});

describe.skipIf(skipWithoutEtcd())('etcd backend when etcd is unreachable', () => {
  it('fails requests with Unreachable instead of hanging', async () => {
    const s = createEtcdBackend({ endpoints: [`http://127.0.0.1:${await freePort()}`], requestTimeoutMs: 2000 });
    for (const call of [s.get('/registry/pods/ns/a'), s.create('/registry/pods/ns/a', bytes('a')), s.list({ prefix: '/registry/pods/' })]) {
      const err = await call.then(() => undefined, (e: unknown) => e);
      expect(isStorageError(err, 'Unreachable')).toBe(true);
    }
    const w = record(s, '/registry/pods/', 0);
    await until(() => w.errors.length === 1);
    expect(isStorageError(w.errors[0], 'Unreachable')).toBe(true);
    await s.close();
  });

  it('ends open watches when etcd stops, fails requests meanwhile, and recovers by itself when it returns', async () => {
    const etcd = await startEtcd();
    try {
      const s = createEtcdBackend({ endpoints: [etcd.endpoint], requestTimeoutMs: 2000 });
      const kv = await s.create('/registry/configmaps/ns/before', bytes('before'));
      const w = record(s, '/registry/configmaps/', kv.modRevision);

      await etcd.stop('SIGKILL');
      await until(() => w.errors.length === 1);
      expect(isStorageError(w.errors[0], 'Unreachable')).toBe(true);
      const failed = await s.get('/registry/configmaps/ns/before').then(() => undefined, (e: unknown) => e);
      expect(isStorageError(failed, 'Unreachable')).toBe(true);

      await etcd.start();
      const back = await eventually(() => s.get('/registry/configmaps/ns/before'));
      expect(text(back.kv!.value)).toBe('before');
      const again = record(s, '/registry/configmaps/', kv.modRevision);
      const after = await s.create('/registry/configmaps/ns/after', bytes('after'));
      expect(after.modRevision).toBeGreaterThan(kv.modRevision);
      await until(() => again.events.length === 1);
      expect(again.events[0].kv.key).toBe('/registry/configmaps/ns/after');
      again.stop();
      await s.close();
    } finally {
      await etcd.destroy();
    }
  });
});
