import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCore, type TestServer } from './serve-for-tests.js';

const CLAIMS = '/api/v1/namespaces/ns/persistentvolumeclaims';
const claim = (name: string, storage = '1Gi', extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage } }, ...extra },
});

describe('PersistentVolumeClaim updates (kube 1.33 ValidatePersistentVolumeClaimUpdate)', () => {
  let t: TestServer;
  const patch = (name: string, body: unknown) => t.req('PATCH', `${CLAIMS}/${name}`, body);
  const bind = async (name: string, capacity: string) => {
    const stored = (await t.req('GET', `${CLAIMS}/${name}`)).body;
    const res = await t.req('PUT', `${CLAIMS}/${name}/status`, { ...stored, status: { phase: 'Bound', capacity: { storage: capacity } } });
    expect(res.status).toBe(200);
  };
  const invalid = (name: string, causes: { reason: string; message: string; field: string }[]) => ({
    status: 422,
    body: {
      reason: 'Invalid',
      code: 422,
      message: `PersistentVolumeClaim "${name}" is invalid: ${causes.length > 1 ? `[${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}]` : `${causes[0].field}: ${causes[0].message}`}`,
      details: { name, kind: 'PersistentVolumeClaim', causes },
    },
  });
  const immutableSpec = {
    reason: 'FieldValueForbidden',
    field: 'spec',
    message: 'Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
  };

  beforeAll(async () => {
    t = await serveCore();
    for (const name of ['pending', 'bound', 'volume', 'mode']) expect((await t.req('POST', CLAIMS, claim(name))).status).toBe(201);
    await bind('bound', '1Gi');
    // As after an expansion to 3Gi that failed: the volume still has 1Gi.
    expect((await t.req('POST', CLAIMS, claim('shrink', '3Gi'))).status).toBe(201);
    await bind('shrink', '1Gi');
  });
  afterAll(async () => {
    await t.server.stop?.();
  });

  it('drops volumeAttributesClassName, as kube 1.33 does with its VolumeAttributesClass feature off', async () => {
    const created = await t.req('POST', CLAIMS, claim('classed', '1Gi', { volumeAttributesClassName: 'gold' }));
    expect(created.status).toBe(201);
    expect(created.body.spec.volumeAttributesClassName).toBeUndefined();
    expect(created.body.status).toEqual({ phase: 'Pending' });
    // An update of a claim that had none drops it too, without an error.
    const patched = await patch('classed', { spec: { volumeAttributesClassName: 'silver' } });
    expect(patched.status).toBe(200);
    expect(patched.body.spec.volumeAttributesClassName).toBeUndefined();
  });

  it('a claim that is not Bound may not change its storage request', async () => {
    expect(await patch('pending', { spec: { resources: { requests: { storage: '2Gi' } } } })).toMatchObject(invalid('pending', [immutableSpec]));
  });

  it('a Bound claim may change its storage request and nothing else in its spec', async () => {
    // Valid, then refused by PersistentVolumeClaimResize: this server serves no StorageClass that allows expansion.
    expect(await patch('bound', { spec: { resources: { requests: { storage: '2Gi' } } } })).toMatchObject({
      status: 403,
      body: {
        reason: 'Forbidden',
        message: 'persistentvolumeclaims "bound" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      },
    });
    expect(await patch('bound', { spec: { accessModes: ['ReadWriteMany'] } })).toMatchObject(invalid('bound', [immutableSpec]));
    expect(await patch('bound', { spec: { resources: { requests: { storage: '3Gi', cpu: '1' } } } })).toMatchObject(invalid('bound', [immutableSpec]));
    expect(await patch('bound', { spec: { resources: { limits: { storage: '5Gi' } } } })).toMatchObject(invalid('bound', [immutableSpec]));
    expect(await patch('bound', { spec: { storageClassName: 'slow' } })).toMatchObject(invalid('bound', [immutableSpec]));
  });

  it('a request may go back down only while it stays above status.capacity (RecoverVolumeExpansionFailure)', async () => {
    const down = await patch('shrink', { spec: { resources: { requests: { storage: '1500Mi' } } } });
    expect(down.status).toBe(200);
    expect(down.body.spec.resources.requests.storage).toBe('1500Mi');
    const tooSmall = { reason: 'FieldValueForbidden', field: 'spec.resources.requests.storage', message: 'Forbidden: field can not be less than status.capacity' };
    expect(await patch('shrink', { spec: { resources: { requests: { storage: '1Gi' } } } })).toMatchObject(invalid('shrink', [tooSmall]));
    expect(await patch('shrink', { spec: { resources: { requests: { storage: '512Mi' } } } })).toMatchObject(invalid('shrink', [tooSmall]));
  });

  it('the volume name may be set once', async () => {
    expect((await patch('volume', { spec: { volumeName: 'pv-1' } })).status).toBe(200);
    expect(await patch('volume', { spec: { volumeName: 'pv-2' } })).toMatchObject(invalid('volume', [immutableSpec]));
  });

  it('the volume mode never changes', async () => {
    expect(await patch('mode', { spec: { volumeMode: 'Block' } })).toMatchObject(
      invalid('mode', [immutableSpec, { reason: 'FieldValueInvalid', field: 'volumeMode', message: 'Invalid value: "Block": field is immutable' }]),
    );
  });

  it('the beta storage-class annotation never changes, but may move to spec.storageClassName', async () => {
    const annotated = { metadata: { name: 'annotated', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await t.req('POST', CLAIMS, annotated)).status).toBe(201);
    expect(await patch('annotated', { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } } })).toMatchObject(
      invalid('annotated', [{ reason: 'FieldValueInvalid', field: 'metadata.annotations.volume.beta.kubernetes.io/storage-class', message: 'Invalid value: "slow": field is immutable' }]),
    );
    expect(await patch('annotated', { spec: { storageClassName: 'slow' } })).toMatchObject(invalid('annotated', [immutableSpec]));
    expect((await patch('annotated', { spec: { storageClassName: 'fast' } })).status).toBe(200);
  });
});
