import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, DELETE, isStorageError } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { CorruptObjectError, encodeForStorage } from './codec.js';
import type { ListRequest } from './interfaces.js';
import { createObjectStorage } from './object-storage.js';

const KEY = '/registry/configmaps/default/c';
const cm = (value: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { value } });

describe('object storage over a key-value backend', () => {
  it('stamps the mod revision as resourceVersion on every object it returns', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    const created = await storage.create(KEY, cm('1'));
    const rv = (created.metadata as { resourceVersion: string }).resourceVersion;
    expect(rv).toBe(String(await backend.currentRevision()));
    expect(await storage.get(KEY)).toEqual(created);
  });

  it('guaranteedUpdate retries with fresh state after losing a race, writes nothing for an unchanged object, deletes on DELETE', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    await storage.create(KEY, cm('1'));
    let attempts = 0;
    const result = await storage.guaranteedUpdate(KEY, async (current) => {
      attempts++;
      // Another writer gets in between the read and the write of the first attempt.
      if (attempts === 1) await backend.update(KEY, encodeForStorage(cm('other')), (await backend.get(KEY)).kv!.modRevision);
      return { ...current!, data: { value: `${(current!.data as { value: string }).value}+mine` } };
    });
    expect(attempts).toBe(2);
    expect(result).toMatchObject({ obj: { data: { value: 'other+mine' } }, created: false, written: true });

    const before = await backend.currentRevision();
    const same = await storage.guaranteedUpdate(KEY, (current) => current!);
    expect(same).toMatchObject({ written: false });
    expect(await backend.currentRevision()).toBe(before);

    const gone = await storage.guaranteedUpdate(KEY, () => DELETE);
    expect(gone).toMatchObject({ deleted: { data: { value: 'other+mine' }, metadata: { resourceVersion: String(before + 1) } } });
    expect(await storage.get(KEY)).toBeUndefined();
  });

  it('guaranteedUpdate of a missing key: KeyNotFound, or a create with ignoreNotFound', async () => {
    const storage = createObjectStorage(createMemoryBackend());
    await expect(storage.guaranteedUpdate(KEY, () => cm('x'))).rejects.toSatisfy((err) => isStorageError(err, 'KeyNotFound'));
    expect(await storage.guaranteedUpdate(KEY, (current) => (current ? DELETE : cm('new')), { ignoreNotFound: true })).toMatchObject({ created: true, written: true });
  });
});

describe('the stored form', () => {
  it('is the JSON of the object without metadata.resourceVersion, every other key where it was', () => {
    const meta = JSON.parse('{"name":"c","resourceVersion":"7","__proto__":{"x":1},"labels":{"a":"b"}}');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { value: '1' } };
    const stored = new TextDecoder().decode(encodeForStorage(obj));
    expect(stored).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","__proto__":{"x":1},"labels":{"a":"b"}},"data":{"value":"1"}}');
    expect(meta.resourceVersion).toBe('7');
  });
});

describe('object storage: lists', () => {
  const PREFIX = '/registry/configmaps/default/';
  const named = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, namespace: 'default', labels }, data: {} });
  const request = (o: Partial<ListRequest>): ListRequest => ({ keyPrefix: '/registry/configmaps/', prefix: PREFIX, limit: 0, select: () => true, plan: { mode: 'consistent' }, ...o });
  const names = (items: KubeObject[]) => items.map((i) => (i.metadata as { name: string }).name);
  const status = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      if (isStatusError(err)) return { code: err.status.code, message: err.status.message };
      if (isStorageError(err)) return err.code;
      throw err;
    }
    return undefined;
  };

  it('reads the collection now, or exactly as it was at a past revision', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    await storage.create(`${PREFIX}a`, named('a'));
    const past = await backend.currentRevision();
    await storage.create(`${PREFIX}b`, named('b'));
    await storage.create('/registry/configmaps/other/c', named('c'));
    expect(names((await storage.getList(request({}))).items)).toEqual(['a', 'b']);
    const then = await storage.getList(request({ plan: { mode: 'exact', revision: past } }));
    expect([names(then.items), then.revision]).toEqual([['a'], past]);
    expect(names((await storage.getList(request({ prefix: '/registry/configmaps/' }))).items)).toEqual(['a', 'b', 'c']);
  });

  it('answers a revision storage has not reached with 504, and one it compacted away with Compacted', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    await storage.create(`${PREFIX}a`, named('a'));
    await storage.create(`${PREFIX}b`, named('b'));
    const current = await backend.currentRevision();
    expect(await status(storage.getList(request({ plan: { mode: 'notOlderThan', revision: current + 10 } })))).toEqual({
      code: 504, message: `Timeout: Too large resource version: ${current + 10}, current: ${current}`,
    });
    expect(await status(storage.getList(request({ plan: { mode: 'exact', revision: current + 10 } })))).toEqual({
      code: 504, message: `Timeout: Too large resource version: ${current + 10}, current: ${current}`,
    });
    expect(await status(storage.getList(request({ plan: { mode: 'notOlderThan', revision: current } })))).toBeUndefined();
    await backend.compact(current);
    expect(await status(storage.getList(request({ plan: { mode: 'exact', revision: current - 1 } })))).toBe('Compacted');
  });

  it('fills a page with selected objects only, and says where it stopped and how many keys remain', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    for (const [name, app] of [['a', 'x'], ['b', 'y'], ['c', 'x'], ['d', 'y'], ['e', 'x']]) await storage.create(`${PREFIX}${name}`, named(name, { app }));
    const selectX = (o: KubeObject) => (o.metadata as { labels: { app: string } }).labels.app === 'x';
    const page = await storage.getList(request({ limit: 2, select: selectX }));
    expect([names(page.items), page.lastKey, page.more]).toEqual([['a', 'c'], `${PREFIX}c`, true]);
    const rest = await storage.getList(request({ limit: 2, select: selectX, startKey: `${page.lastKey}\u0000`, plan: { mode: 'exact', revision: page.revision } }));
    expect([names(rest.items), rest.more]).toEqual([['e'], false]);
    const unfiltered = await storage.getList(request({ limit: 2 }));
    expect([names(unfiltered.items), unfiltered.more, unfiltered.remaining]).toEqual([['a', 'b'], true, 3]);
  });
});

describe('object storage: what cannot be read', () => {
  it('a value that is not an object with metadata is kube\'s corrupt-object 500; forceDelete removes it unread', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    await backend.create(KEY, new TextEncoder().encode('{"metadata": null}'));
    const err = await storage.get(KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptObjectError);
    expect((err as CorruptObjectError).status).toMatchObject({ code: 500, reason: 'InternalError' });
    expect((err as CorruptObjectError).status.message).toContain(`corrupt object, Code: 7, Key: ${KEY}`);
    await storage.forceDelete(KEY);
    expect(await storage.get(KEY)).toBeUndefined();
  });

  it('serves no watch on its own: 429 until a watch cache fronts it', async () => {
    const storage = createObjectStorage(createMemoryBackend());
    const err = await storage.watch({} as never).catch((e: unknown) => e);
    expect(isStatusError(err) && err.status).toMatchObject({ code: 429, message: 'storage is (re)initializing' });
  });
});
