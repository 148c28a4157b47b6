// What kube-apiserver gives built-in objects on create and keeps on update, that clients and selectors rely on.
import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';

const NS = '/api/v1/namespaces';

describe('namespaces carry kubernetes.io/metadata.name', () => {
  it('on the namespaces the server creates, on create (generateName too), and back after an update removes it', async () => {
    const h = await startHarness();
    expect((await h.req('GET', `${NS}/default`)).body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
    const named = await h.req('POST', NS, { metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'other', tier: 'x' } } });
    expect(named.body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a', tier: 'x' });
    expect(named.body.status).toEqual({ phase: 'Active' });
    const generated = await h.req('POST', NS, { metadata: { generateName: 'gen-' } });
    expect(generated.status).toBe(201);
    expect(generated.body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': generated.body.metadata.name });
    const stripped = await h.req('PATCH', `${NS}/team-a`, [{ op: 'remove', path: '/metadata/labels/kubernetes.io~1metadata.name' }], {
      'content-type': 'application/json-patch+json',
    });
    expect(stripped.status).toBe(200);
    expect(stripped.body.metadata.labels['kubernetes.io/metadata.name']).toBe('team-a');
    const selected = await h.req('GET', `${NS}?labelSelector=kubernetes.io/metadata.name%3Dteam-a`);
    expect(selected.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['team-a']);
  });
});

describe('services', () => {
  it('are created with an empty status (loadBalancer: {}), whatever status the client sent', async () => {
    const h = await startHarness();
    const created = await h.req('POST', '/api/v1/namespaces/default/services', {
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80 }] },
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({ loadBalancer: {} });
  });
});
