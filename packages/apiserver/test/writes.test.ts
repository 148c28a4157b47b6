import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

describe('server-side apply and patch options', () => {
  it('apply creates (201) with an Apply entry, needs a fieldManager, and re-applies (200)', async () => {
    const h = await startHarness();
    const cfg = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\n';
    const noManager = await h.req('PATCH', `${CM}/ssa`, cfg, APPLY);
    expect(noManager.status).toBe(422);
    expect(noManager.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const created = await h.req('PATCH', `${CM}/ssa?fieldManager=tool`, cfg, APPLY);
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'tool', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }),
    ]);
    const again = await h.req('PATCH', `${CM}/ssa?fieldManager=tool`, cfg.replace('a: "1"', 'b: "2"'), APPLY);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ b: '2' });
  });

  it('records Update ownership for ordinary writes, named after the User-Agent when no fieldManager is given', async () => {
    const h = await startHarness();
    const created = await h.req('POST', CM, { metadata: { name: 'u' }, data: { a: '1' } }, { 'user-agent': 'mytool/1.0 (linux)' });
    expect(created.body.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'mytool', operation: 'Update', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } }),
    ]);
  });

  it('refuses force on a non-apply patch and strategic patches for schema-defined groups', async () => {
    const h = await startHarness();
    await h.req('POST', CM, { metadata: { name: 'p' } });
    const force = await h.req('PATCH', `${CM}/p?force=true`, { data: { a: 'b' } }, { 'content-type': 'application/merge-patch+json' });
    expect(force.status).toBe(422);
    expect(force.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const F = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
    await h.req('POST', F, { metadata: { name: 'f' } });
    const smp = await h.req('PATCH', `${F}/f`, { spec: { reference: 'x' } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(smp.status).toBe(415);
    const merge = await h.req('PATCH', `${F}/f`, { spec: { reference: 'x' } }, { 'content-type': 'application/merge-patch+json' });
    expect(merge.status).toBe(200);
    const smpCore = await h.req('PATCH', `${CM}/p`, { data: { a: 'b' } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(smpCore.status).toBe(200);
  });
});
