// Server-side apply of configurations that hold `null` (Helm's `annotations: null`, `args: null`...): kube's
// structured-merge-diff takes null as a value of any field, and the field ends up unset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

describe('server-side apply with nulls', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.server.stop());

  it('accepts null for maps, lists and objects, and leaves those fields unset', async () => {
    const created = await h.req('PATCH', `${CM}/nulls?fieldManager=helm`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nulls, labels: null, annotations: null}\ndata: null\nbinaryData: null\n', APPLY);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const body = created.body as { metadata: Record<string, unknown>; data?: unknown };
    expect(body.metadata.labels).toBeUndefined();
    expect(body.data).toBeUndefined();

    // Applied once with values, then with null: what the manager applied before is gone.
    const full = await h.req('PATCH', `${CM}/nulls?fieldManager=helm`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nulls, labels: {app: web}}\ndata: {k: v}\n', APPLY);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ metadata: { labels: { app: 'web' } }, data: { k: 'v' } });
    const cleared = await h.req('PATCH', `${CM}/nulls?fieldManager=helm`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nulls, labels: null}\ndata: null\n', APPLY);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect((cleared.body as { metadata: Record<string, unknown> }).metadata.labels).toBeUndefined();
    expect((cleared.body as { data?: unknown }).data).toBeUndefined();
  });

  it('accepts the nulls a Helm chart renders into a Deployment', async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: chart, annotations: null}',
      'spec:',
      '  replicas: 1',
      '  selector: {matchLabels: {app: chart}}',
      '  template:',
      '    metadata: {labels: {app: chart}, annotations: null}',
      '    spec:',
      '      volumes: null',
      '      initContainers: null',
      '      dnsConfig: null',
      '      containers:',
      '      - {name: app, image: nginx, args: null, volumeMounts: null, resources: null, env: null}',
      '',
    ].join('\n');
    const res = await h.req('PATCH', `${DEPLOY}/chart?fieldManager=helm`, manifest, APPLY);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const container = (res.body as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } }).spec.template.spec.containers[0];
    expect(container.args).toBeUndefined();
    expect(container.image).toBe('nginx');
  });

  it('still refuses a value of the wrong type with the decoder\'s 400', async () => {
    const res = await h.req('PATCH', `${CM}/typed?fieldManager=helm`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typed, labels: web}\n', APPLY);
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toContain('cannot unmarshal string into Go struct field');
  });
});
