import type { KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, DELETE, isStorageError } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { dryRunnable } from './dry-run.js';
import type { ListRequest } from './interfaces.js';
import { createObjectStorage } from './object-storage.js';

const KEY = '/registry/configmaps/default/c';
const cm = (value: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { value } });

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

describe('dry-run storage, further', () => {
  const setup = async () => {
    const backend = createMemoryBackend();
    const storage = createObjectStorage(backend);
    await storage.create(KEY, cm('1'));
    return { backend, storage, dry: dryRunnable(storage)(true), revision: await backend.currentRevision() };
  };

  it('a create returns the object as given, without a resourceVersion (nothing was stored)', async () => {
    const { dry } = await setup();
    const created = await dry.create('/registry/configmaps/default/new', cm('n'));
    expect(created.metadata).not.toHaveProperty('resourceVersion');
  });

  it('an update that changes nothing is reported unwritten; one of a missing key creates only with ignoreNotFound', async () => {
    const { dry, backend, revision } = await setup();
    expect(await dry.guaranteedUpdate(KEY, (c) => c!)).toMatchObject({ written: false, created: false, obj: { data: { value: '1' } } });
    await expect(dry.guaranteedUpdate('/registry/configmaps/default/none', () => cm('x'))).rejects.toSatisfy((err) => isStorageError(err, 'KeyNotFound'));
    expect(await dry.guaranteedUpdate('/registry/configmaps/default/none', (c) => c ?? cm('x'), { ignoreNotFound: true })).toMatchObject({ created: true, written: true });
    expect(await backend.currentRevision()).toBe(revision);
  });

  it('hands the update a copy it may change in place: reported written as storage would write it, the stored object left alone', async () => {
    const { dry, storage } = await setup();
    const inPlace = (c: KubeObject | undefined) => {
      (c!.data as { value: string }).value = 'changed in place';
      return c!;
    };
    expect(await dry.guaranteedUpdate(KEY, inPlace)).toMatchObject({ written: true, obj: { data: { value: 'changed in place' } } });
    expect((await storage.get(KEY))!.data).toEqual({ value: '1' });
    // The real write of the same update does write.
    expect(await storage.guaranteedUpdate(KEY, inPlace)).toMatchObject({ written: true });
  });

  it('reads and lists what storage holds; a forced deletion removes nothing', async () => {
    const { dry, storage } = await setup();
    expect(await dry.get(KEY)).toEqual(await storage.get(KEY));
    const req: ListRequest = { keyPrefix: '/registry/configmaps/', prefix: '/registry/configmaps/', limit: 0, select: () => true, plan: { mode: 'consistent' } };
    expect((await dry.getList(req)).items).toHaveLength(1);
    await dry.forceDelete(KEY);
    expect(await storage.get(KEY)).toBeDefined();
  });
});
