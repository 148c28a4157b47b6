import type { KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, DELETE, isStorageError } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { encodeForStorage } from './codec.js';
import { dryRunnable } from './dry-run.js';
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

describe('dry-run storage', () => {
  it('computes every write from the stored state and stores nothing', async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    const dry = dryRunnable(storage)(true);
    await storage.create(KEY, cm('1'));
    const revision = await backend.currentRevision();
    await expect(dry.create(KEY, cm('2'))).rejects.toSatisfy((err) => isStorageError(err, 'KeyExists'));
    expect(await dry.create('/registry/configmaps/default/new', cm('n'))).toEqual(cm('n'));
    expect(await dry.guaranteedUpdate(KEY, (c) => ({ ...c!, data: { value: 'dry' } }))).toMatchObject({ obj: { data: { value: 'dry' } }, written: true });
    expect(await dry.guaranteedUpdate(KEY, () => DELETE)).toMatchObject({ deleted: { data: { value: '1' } } });
    await expect(dry.guaranteedUpdate('/registry/configmaps/default/none', () => DELETE)).rejects.toSatisfy((err) => isStorageError(err, 'KeyNotFound'));
    expect(await backend.currentRevision()).toBe(revision);
    expect((await storage.get(KEY))!.data).toEqual({ value: '1' });
  });

  it('is the storage itself when the request is not a dry run', () => {
    const storage = createObjectStorage(createMemoryBackend());
    expect(dryRunnable(storage)(false)).toBe(storage);
  });
});
