// kube's custom resource and CustomResourceDefinition strategies do not allow unconditional updates: a PUT (or a
// patch that removes the resourceVersion) must carry the resourceVersion it was read at, or it is refused with 422,
// on the status subresource too; and a PUT does not create a custom resource (404), while server-side apply does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRDS, fixture, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.establish(fixture('crontab-crd.yaml'));
});
afterAll(() => h.server.stop());

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const cronTab = (name: string, more: Record<string, unknown> = {}) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, ...more },
  spec: { cronSpec: '* * * * */5' },
});
const mustSpecify = (resource: string, name: string) => `${resource} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`;

describe('an update without a resourceVersion', () => {
  it('of a custom resource is refused, on the resource and its status', async () => {
    expect((await h.req('POST', CRONTABS, cronTab('a'))).status).toBe(201);
    const put = await h.req('PUT', `${CRONTABS}/a`, cronTab('a'));
    expect(put.status).toBe(422);
    expect(put.body.message).toBe(mustSpecify('crontabs.stable.example.com', 'a'));
    expect(put.body.details).toMatchObject({ name: 'a', group: 'stable.example.com', kind: 'crontabs', causes: [{ reason: 'FieldValueInvalid', field: 'metadata.resourceVersion' }] });
    const status = await h.req('PUT', `${CRONTABS}/a/status`, { ...cronTab('a'), status: { replicas: 1 } });
    expect(status.status).toBe(422);
    const removed = await h.req('PATCH', `${CRONTABS}/a`, '{"metadata":{"resourceVersion":null},"spec":{"image":"x"}}', { 'content-type': 'application/merge-patch+json' });
    expect(removed.status).toBe(422);
  });

  it('is not needed by a PUT that carries it, nor by patches and apply', async () => {
    const current = await h.req('GET', `${CRONTABS}/a`);
    const put = await h.req('PUT', `${CRONTABS}/a`, cronTab('a', { resourceVersion: current.body.metadata.resourceVersion }));
    expect(put.status).toBe(200);
    const patched = await h.req('PATCH', `${CRONTABS}/a`, '{"spec":{"image":"y"}}', { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    const applied = await h.req('PATCH', `${CRONTABS}/a?fieldManager=t`, cronTab('a'), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(200);
  });

  it('of a CustomResourceDefinition is refused', async () => {
    const crd = (await h.req('GET', `${CRDS}/crontabs.stable.example.com`)).body;
    delete crd.metadata.resourceVersion;
    const put = await h.req('PUT', `${CRDS}/crontabs.stable.example.com`, crd);
    expect(put.status).toBe(422);
    expect(put.body.message).toBe(mustSpecify('customresourcedefinitions.apiextensions.k8s.io', 'crontabs.stable.example.com'));
  });
});

describe('a PUT of a custom resource that does not exist', () => {
  it('is 404, as kube does not create custom resources on update; apply creates', async () => {
    const put = await h.req('PUT', `${CRONTABS}/b`, cronTab('b'));
    expect(put.status).toBe(404);
    expect(put.body.message).toBe('crontabs.stable.example.com "b" not found');
    const applied = await h.req('PATCH', `${CRONTABS}/b?fieldManager=t`, cronTab('b'), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
  });
});
