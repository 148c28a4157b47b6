import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

// A CRD with a map list, a set list, a bounded field under a CEL rule, and no status subresource.
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas', message: 'replicas must be <= maxReplicas', fieldPath: '.replicas' }],
                properties: {
                  replicas: { type: 'integer', maximum: 10 },
                  maxReplicas: { type: 'integer', default: 5 },
                  mode: { type: 'string', enum: ['on', 'off'] },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                  },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  note: { type: 'string', nullable: true },
                  template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
                  other: { type: 'string' },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { seen: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};
const GIZMOS = '/apis/example.com/v1/namespaces/default/gizmos';
const gizmo = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name }, spec });

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

describe('custom resources: list types, CEL rules beside schema errors, generation', () => {
  const causes = async (spec: Record<string, unknown>) => {
    const res = await h!.req('POST', GIZMOS, gizmo('bad', spec));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
  };

  it('refuses duplicate items of set lists and duplicate keys of map lists, and embedded resources without apiVersion or kind, as kube does', async () => {
    h = await startHarness();
    await h.establish(crd);
    expect(await causes({ replicas: 1, ports: [{ name: 'a', port: 4 }, { name: 'b', port: 5 }, { name: 'a', port: 6 }], tags: ['x', 'y', 'x'] })).toEqual([
      'spec.ports[2]: Duplicate value: map[string]interface {}{"name":"a"}',
      'spec.tags[2]: Duplicate value: "x"',
    ]);
    // An embedded resource names its apiVersion and kind.
    expect(await causes({ replicas: 1, template: { metadata: { name: 'x' }, spec: { a: 1 } } })).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      // A required value missing blocks the CEL rules, as in kube.
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const ok = await h.req('POST', GIZMOS, gizmo('fine', { replicas: 1, ports: [{ name: 'a', port: 4 }, { name: 'b', port: 4 }], tags: ['x', 'y'] }));
    expect(ok.status).toBe(201);
    // A merge patch that adds a duplicate is refused too.
    const patched = await h.req('PATCH', `${GIZMOS}/fine`, { spec: { tags: ['x', 'x'] } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(422);
    expect(patched.body.message).toContain('spec.tags[1]: Duplicate value: "x"');
  });

  it('checks an embedded resource as kube does: apiVersion and kind well formed, metadata an ObjectMeta kube accepts', async () => {
    h = await startHarness();
    await h.establish(crd);
    const template = (t: Record<string, unknown>) => causes({ replicas: 1, template: t });
    expect(await template({ apiVersion: 'a/b/c', kind: 'Not_A_Kind', metadata: { name: 'a/b', generateName: 'x%', namespace: 'Bad_NS', labels: { 'bad key': 'v' }, annotations: { 'also bad': 'v' }, finalizers: ['orphan', 'foregroundDeletion'] } })).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.template.kind: Invalid value: \"Not_A_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.template.metadata.generateName: Invalid value: \"x%\": may not contain '%'",
      "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
      "spec.template.metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.template.metadata.annotations: Invalid value: \"also bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.template.metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
      "spec.template.metadata.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    // Metadata that does not decode into an ObjectMeta is reported with Go's decoding error; empty type fields as empty.
    expect(await template({ apiVersion: '', kind: 5, metadata: { labels: { a: 1 } } })).toEqual([
      'spec.template.apiVersion: Invalid value: "": must not be empty',
      'spec.template.kind: Invalid value: 5: must be a string',
      'spec.template.metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    ]);
    expect(await template({ apiVersion: 'v1', kind: 'Pod', metadata: 'x' })).toEqual([
      'spec.template.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    ]);
    // A template without a name, with mixed-case kind and a group version, is fine.
    const ok = await h.req('POST', GIZMOS, gizmo('templated', { replicas: 1, template: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { labels: { app: 'x' } } } }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('reports a schema error and a rule error at one field both, and skips the rules when a schema error blocks them', async () => {
    h = await startHarness();
    await h.establish(crd);
    // Both: the schema's maximum and the rule, at spec.replicas.
    expect(await causes({ replicas: 50, maxReplicas: 3 })).toEqual([
      'spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10',
      'spec.replicas: Invalid value: "object": replicas must be <= maxReplicas',
    ]);
    // A value outside the enum blocks the rules (kube's hasBlockingErr): they are not run, and kube says so.
    expect(await causes({ replicas: 9, maxReplicas: 3, mode: 'sideways' })).toEqual([
      'spec.mode: Unsupported value: "sideways": supported values: "on", "off"',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('keeps the null of a nullable field and drops the null of any other', async () => {
    h = await startHarness();
    await h.establish(crd);
    const created = await h.req('POST', GIZMOS, gizmo('n', { replicas: 1, note: null, other: null }));
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ replicas: 1, maxReplicas: 5, note: null });
    expect((await h.req('GET', `${GIZMOS}/n`)).body.spec).toEqual({ replicas: 1, maxReplicas: 5, note: null });
  });

  it('keeps every null where unknown fields are preserved (no schema says otherwise), as kube does', async () => {
    h = await startHarness();
    await h.establish(crd);
    const spec = {
      replicas: 1,
      template: { apiVersion: 'v1', kind: 'Thing', spec: { a: null, list: [null, { b: null }] }, extra: null },
      free: { a: null, b: [null], c: { d: null } },
    };
    const created = await h.req('POST', GIZMOS, gizmo('free', spec));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.spec).toEqual({ ...spec, maxReplicas: 5 });
    expect((await h.req('GET', `${GIZMOS}/free`)).body.spec).toEqual({ ...spec, maxReplicas: 5 });
  });

  it('bumps the generation for a status change when the version has no status subresource', async () => {
    h = await startHarness();
    await h.establish(crd);
    const created = await h.req('POST', GIZMOS, gizmo('g', { replicas: 1 }));
    expect(created.body.metadata.generation).toBe(1);
    const status = await h.req('PUT', `${GIZMOS}/g`, { ...created.body, status: { seen: 1 } });
    expect(status.status).toBe(200);
    expect(status.body.metadata.generation).toBe(2);
    const labels = await h.req('PUT', `${GIZMOS}/g`, { ...status.body, metadata: { ...status.body.metadata, labels: { a: 'b' } } });
    expect(labels.body.metadata.generation).toBe(2);
  });
});
