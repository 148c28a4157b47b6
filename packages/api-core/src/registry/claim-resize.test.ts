import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, PluginHost } from '@kapi/apiserver';
import { claimResizeAdmission } from './claim-resize.js';

const classes: Record<string, object> = {
  expandable: { metadata: { name: 'expandable' }, allowVolumeExpansion: true },
  fixed: { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
  unset: { metadata: { name: 'unset' } },
};
const storageGroup = { info: { group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' } };
const fakeHost = (served = true) =>
  ({
    registry: { byKind: (group: string, _v: string, kind: string) => (served && group === 'storage.k8s.io' && kind === 'StorageClass' ? storageGroup : undefined) },
    systemContext: (entry: unknown) => ({ entry }),
    store: { find: async (_ctx: unknown, name: string) => classes[name] },
  }) as unknown as PluginHost;

const claim = (storage: string, className?: string, phase = 'Bound', annotation?: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'ns', ...(annotation ? { annotations: { 'volume.beta.kubernetes.io/storage-class': annotation } } : {}) },
  spec: { ...(className ? { storageClassName: className } : {}), resources: { requests: { storage } } },
  status: { phase },
});
const attrs = (object: object, oldObject: object, subresource = '') =>
  ({
    operation: 'UPDATE',
    resource: { group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims' },
    subresource,
    namespace: 'ns',
    name: 'data',
    object,
    oldObject,
  }) as unknown as AdmissionAttributes;

const RESIZE_REFUSED = 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

describe("kube's PersistentVolumeClaimResize admission", () => {
  const plugin = claimResizeAdmission(fakeHost());
  const refusal = async (a: AdmissionAttributes) => {
    try {
      await plugin.validate!(a);
    } catch (err) {
      return { code: (err as any).status?.code, message: (err as any).status?.message };
    }
    return undefined;
  };

  it('lets a Bound claim grow when its StorageClass allows volume expansion (named in the spec or the beta annotation)', async () => {
    expect(await refusal(attrs(claim('2Gi', 'expandable'), claim('1Gi', 'expandable')))).toBeUndefined();
    expect(await refusal(attrs(claim('2Gi', undefined, 'Bound', 'expandable'), claim('1Gi', undefined, 'Bound', 'expandable')))).toBeUndefined();
  });

  it('has nothing to say when the request does not grow', async () => {
    expect(await refusal(attrs(claim('1Gi', 'fixed'), claim('1Gi', 'fixed')))).toBeUndefined();
    expect(await refusal(attrs(claim('1024Mi', 'fixed'), claim('1Gi', 'fixed')))).toBeUndefined();
    expect(await refusal(attrs(claim('512Mi', 'fixed', 'Pending'), claim('1Gi', 'fixed', 'Pending')))).toBeUndefined();
  });

  it('refuses growth without a class that allows it: 403 with kube message', async () => {
    for (const className of ['fixed', 'unset', 'missing', undefined]) {
      expect(await refusal(attrs(claim('2Gi', className), claim('1Gi', className)))).toEqual({ code: 403, message: RESIZE_REFUSED });
    }
    // The class must be the same before and after.
    expect(await refusal(attrs(claim('2Gi', 'expandable'), claim('1Gi', undefined, 'Bound', 'fixed')))).toEqual({ code: 403, message: RESIZE_REFUSED });
    // No storage.k8s.io group served: no class is found.
    const unserved = claimResizeAdmission(fakeHost(false));
    await expect(unserved.validate!(attrs(claim('2Gi', 'expandable'), claim('1Gi', 'expandable')))).rejects.toMatchObject({ status: { code: 403, message: RESIZE_REFUSED } });
  });

  it('refuses growth of a claim that is not Bound', async () => {
    expect(await refusal(attrs(claim('2Gi', 'expandable', 'Pending'), claim('1Gi', 'expandable', 'Pending')))).toEqual({
      code: 403,
      message: 'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded',
    });
  });

  it('leaves subresource writes alone', async () => {
    expect(await refusal(attrs(claim('2Gi', 'fixed'), claim('1Gi', 'fixed'), 'status'))).toBeUndefined();
  });
});
