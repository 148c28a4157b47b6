import { createMemoryBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../index.js';
import { ALL_GROUPS, dataPlugin } from '../../test/harness.js';

describe('ownerReferences and the garbage collector\'s finalizers (kube\'s ValidateObjectMeta)', () => {
  it('refuses empty names, uids and versions, Events as owners, two controllers, and orphan with foregroundDeletion', async () => {
    const server = createApiServer({ storage: createMemoryBackend(), plugins: ALL_GROUPS.map(dataPlugin) });
    await server.start();
    try {
      const create = async (metadata: object) => {
        const res = await server.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps', {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', ...metadata } }),
        }));
        return { status: res.status, message: ((await res.json()) as { message?: string }).message };
      };
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' };
      expect(await create({ ownerReferences: [{ ...ref, uid: '' }] })).toEqual({ status: 422, message: 'ConfigMap "x" is invalid: metadata.ownerReferences.uid: Invalid value: "": uid must not be empty' });
      expect(await create({ ownerReferences: [{ ...ref, name: '' }] })).toEqual({ status: 422, message: 'ConfigMap "x" is invalid: metadata.ownerReferences.name: Invalid value: "": name must not be empty' });
      expect(await create({ ownerReferences: [{ ...ref, apiVersion: 'apps/' }] })).toEqual({ status: 422, message: 'ConfigMap "x" is invalid: metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty' });
      expect((await create({ ownerReferences: [{ ...ref, kind: 'Event' }] })).message).toContain('/v1, Kind=Event is disallowed from being an owner');
      expect((await create({ ownerReferences: [{ ...ref, controller: true }, { ...ref, name: 'p', uid: 'v', controller: true }] })).message).toContain(
        'Only one reference can have Controller set to true. Found "true" in references for ConfigMap/o and ConfigMap/p',
      );
      expect((await create({ finalizers: ['orphan', 'foregroundDeletion'] })).message).toContain('finalizer orphan and foregroundDeletion cannot be both set');
      expect((await create({ ownerReferences: [ref, { ...ref, name: 'p', uid: 'v' }] })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});

describe('gcFinalizers (kube\'s deletionFinalizersForGarbageCollection)', () => {
  it('sets orphan or foregroundDeletion as the delete asks, the object\'s own finalizer deciding when it does not', async () => {
    const { gcFinalizers } = await import('./rest.js');
    expect(gcFinalizers(['a'], {})).toEqual(['a']);
    expect(gcFinalizers(['a'], { propagationPolicy: 'Orphan' })).toEqual(['a', 'orphan']);
    expect(gcFinalizers(['a'], { propagationPolicy: 'Foreground' })).toEqual(['a', 'foregroundDeletion']);
    expect(gcFinalizers(['orphan', 'a'], { propagationPolicy: 'Background' })).toEqual(['a']);
    expect(gcFinalizers(['foregroundDeletion'], { propagationPolicy: 'Orphan' })).toEqual(['orphan']);
    expect(gcFinalizers([], { orphanDependents: true })).toEqual(['orphan']);
    expect(gcFinalizers(['orphan'], { orphanDependents: false })).toEqual([]);
    // No policy given: the finalizer already there stays.
    expect(gcFinalizers(['orphan'], {})).toEqual(['orphan']);
    expect(gcFinalizers(['foregroundDeletion'], {})).toEqual(['foregroundDeletion']);
  });
});
