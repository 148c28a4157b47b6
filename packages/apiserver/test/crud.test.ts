import { beforeEach, describe, expect, it } from 'vitest';
import { configMap, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('CRUD and metadata rules', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });

  it('lists no CustomResourceDefinitions without the apiextensions plugin (kubectl asks), and serves nothing else of them', async () => {
    const list = await h.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=500');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion: '0' }, items: [] });
    expect((await h.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x')).status).toBe(404);
    expect((await h.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { metadata: { name: 'x' } })).status).toBe(404);
    expect((await h.req('GET', '/apis/apiextensions.k8s.io/v1')).status).toBe(404);
  });

  it('creates the system namespaces at start', async () => {
    const res = await h.req('GET', '/api/v1/namespaces');
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('NamespaceList');
    expect(res.body.items.map((n: any) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(res.body.items[0].status).toEqual({ phase: 'Active' });
    expect(res.body.items[0].spec).toEqual({ finalizers: ['kubernetes'] });
  });

  it('creates with server-set metadata, fills in kind and apiVersion, and reads back', async () => {
    const created = await h.req('POST', CM, { metadata: { name: 'one' }, data: { k: 'v' } });
    expect(created.status).toBe(201);
    const meta = created.body.metadata;
    expect(created.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
    expect(meta).toMatchObject({ name: 'one', namespace: 'default' });
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.generation).toBeUndefined();
    const got = await h.req('GET', `${CM}/one`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
  });

  it('answers duplicates with 409 AlreadyExists, and a name is reusable after deletion', async () => {
    expect((await h.req('POST', CM, configMap('dup'))).status).toBe(201);
    const again = await h.req('POST', CM, configMap('dup'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', code: 409,
      message: 'configmaps "dup" already exists', details: { name: 'dup', kind: 'configmaps' },
    });
    const del = await h.req('DELETE', `${CM}/dup`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'dup', kind: 'configmaps' } });
    expect((await h.req('GET', `${CM}/dup`)).status).toBe(404);
    expect((await h.req('POST', CM, configMap('dup'))).status).toBe(201);
  });

  it('generates names from generateName', async () => {
    const res = await h.req('POST', CM, { metadata: { generateName: 'gen-' }, data: {} });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('validates names, labels and required metadata as kube does', async () => {
    const bad = await h.req('POST', CM, configMap('Bad_Name', {}, { labels: { 'bad key!': 'x' } }));
    expect(bad.status).toBe(422);
    expect(bad.body.reason).toBe('Invalid');
    expect(bad.body.message).toMatch(/^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(bad.body.details.causes.map((c: any) => c.field)).toEqual(['metadata.name', 'metadata.labels']);
    // kube checks the path-segment rule only after the kind's own name rule passed (rest.BeforeCreate): a DNS name
    // with `%` or `/` gets the DNS message alone.
    const percent = await h.req('POST', CM, configMap('a%b', {}));
    expect(percent.status).toBe(422);
    expect(percent.body.details.causes.map((c: any) => c.message)).toEqual([expect.stringMatching(/^Invalid value: "a%b": a lowercase RFC 1123 subdomain/)]);
    // A generateName is checked by the same rule as a prefix (kube's maskTrailingDash lets it end in '-'), before the
    // name made from it.
    const prefix = await h.req('POST', CM, { metadata: { generateName: 'Bad_' }, data: {} });
    expect(prefix.status).toBe(422);
    expect(prefix.body.details.causes.map((c: any) => c.field)).toEqual(['metadata.generateName', 'metadata.name']);
    expect(prefix.body.details.causes[0].message).toMatch(/^Invalid value: "Bad_": a lowercase RFC 1123 subdomain/);
    expect((await h.req('POST', CM, { metadata: { generateName: 'ok-' }, data: {} })).status).toBe(201);
    const noName = await h.req('POST', CM, { data: {} });
    expect(noName.status).toBe(422);
    expect(noName.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
    ]);
  });

  it('rejects a body that contradicts the URL, and lists', async () => {
    const ns = await h.req('POST', CM, configMap('x', {}, { namespace: 'kube-system' }));
    expect(ns.status).toBe(400);
    expect(ns.body.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    const kind = await h.req('POST', CM, { kind: 'Secret', apiVersion: 'v1', metadata: { name: 'x' } });
    expect(kind.status).toBe(400);
    const version = await h.req('POST', CM, { kind: 'ConfigMap', apiVersion: 'v2', metadata: { name: 'x' } });
    expect(version.status).toBe(400);
    const list = await h.req('POST', CM, { kind: 'ConfigMapList', apiVersion: 'v1', items: [configMap('a')] });
    expect(list.status).toBe(400);
    expect((await h.req('GET', `${CM}/x`)).status).toBe(404);
  });

  it('creates in a missing namespace → 404; a wrong type is a fatal decoding error → 400', async () => {
    const missing = await h.req('POST', '/api/v1/namespaces/nope/configmaps', configMap('a'));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('namespaces "nope" not found');
    const wrongType = await h.req('POST', CM, { metadata: { name: 'a' }, data: { k: 1 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.reason).toBe('BadRequest');
    expect(wrongType.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
  });

  it('updates with optimistic concurrency: stale resourceVersion → 409; PUT creates a missing object where kube does', async () => {
    const created = (await h.req('POST', CM, configMap('u'))).body;
    const ok = await h.req('PUT', `${CM}/u`, { ...created, data: { a: '2' } });
    expect(ok.status).toBe(200);
    expect(ok.body.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    expect(ok.body.metadata.uid).toBe(created.metadata.uid);
    const stale = await h.req('PUT', `${CM}/u`, { ...created, data: { a: '3' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on configmaps "u": the object has been modified; please apply your changes to the latest version and try again',
    );
    // As kube's strategies: a ConfigMap is not created by a PUT (404), Endpoints are.
    const put = await h.req('PUT', `${CM}/fresh`, configMap('fresh'));
    expect(put.status).toBe(404);
    expect(put.body.message).toBe('configmaps "fresh" not found');
    const endpoints = await h.req('PUT', '/api/v1/namespaces/default/endpoints/fresh', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'fresh' } });
    expect(endpoints.status).toBe(201);
    const mismatch = await h.req('PUT', `${CM}/other`, configMap('fresh'));
    expect(mismatch.status).toBe(400);
  });

  it('bumps generation when the spec changes, not for metadata-only changes', async () => {
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const dep = {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const created = (await h.req('POST', D, dep)).body;
    expect(created.metadata.generation).toBe(1);
    const labeled = await h.req('PATCH', `${D}/web`, { metadata: { labels: { x: 'y' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(labeled.body.metadata.generation).toBe(1);
    const scaled = await h.req('PATCH', `${D}/web`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' });
    expect(scaled.status).toBe(200);
    expect(scaled.body.metadata.generation).toBe(2);
  });

  it('patches with JSON Patch; a failed test changes nothing', async () => {
    await h.req('POST', CM, configMap('p', { a: '1' }));
    const jp = { 'content-type': 'application/json-patch+json' };
    const failed = await h.req('PATCH', `${CM}/p`, [{ op: 'test', path: '/data/a', value: '9' }, { op: 'replace', path: '/data/a', value: '2' }], jp);
    expect(failed.status).toBe(422);
    expect((await h.req('GET', `${CM}/p`)).body.data).toEqual({ a: '1' });
    const ok = await h.req('PATCH', `${CM}/p`, [{ op: 'test', path: '/data/a', value: '1' }, { op: 'add', path: '/data/b', value: '2' }], jp);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ a: '1', b: '2' });
    const smp = await h.req('PATCH', `${CM}/p`, {}, { 'content-type': 'text/plain' });
    expect(smp.status).toBe(415);
  });

  it('lists with label selectors and in chunks at one resource version', async () => {
    for (const [name, tier] of [['c1', 'web'], ['c2', 'db'], ['c3', 'web']]) {
      await h.req('POST', CM, configMap(name, {}, { labels: { tier } }));
    }
    const web = await h.req('GET', `${CM}?labelSelector=${encodeURIComponent('tier=web')}`);
    expect(web.body.items.map((i: any) => i.metadata.name)).toEqual(['c1', 'c3']);
    const page1 = await h.req('GET', `${CM}?limit=2`);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.metadata.remainingItemCount).toBe(1);
    await h.req('POST', CM, configMap('c4'));
    const page2 = await h.req('GET', `${CM}?limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
    expect(page2.body.items.map((i: any) => i.metadata.name)).toEqual(['c3']);
    expect(page2.body.metadata.resourceVersion).toBe(page1.body.metadata.resourceVersion);
    expect(page2.body.metadata.continue).toBeUndefined();
    const all = await h.req('GET', '/api/v1/configmaps');
    expect(all.body.items.map((i: any) => i.metadata.name)).toEqual(['c1', 'c2', 'c3', 'c4']);
    const badField = await h.req('GET', `${CM}?fieldSelector=spec.nope%3Dx`);
    expect(badField.status).toBe(400);
    expect(badField.body.message).toBe('field label not supported: spec.nope');
  });

  it('reports duplicate fields of JSON and YAML bodies, and a fatal error hides them', async () => {
    const dup = '{"metadata":{"name":"d1","name":"d1"},"data":{"a":"1","a":"2"},"kind":"ConfigMap"}';
    const warn = await h.req('POST', CM, dup);
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe('299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"data.a\\""');
    expect(warn.body.data).toEqual({ a: '2' });
    const strict = await h.req('POST', `${CM}?fieldValidation=Strict`, dup.replaceAll('d1', 'd2'));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('strict decoding error: duplicate field "metadata.name", duplicate field "data.a"');
    const yaml = 'metadata:\n  name: y1\ndata:\n  a: "1"\n  a: "2"\nbogus: 1\n';
    const strictYaml = await h.req('POST', `${CM}?fieldValidation=Strict`, yaml, { 'content-type': 'application/yaml' });
    expect(strictYaml.body.message).toBe('strict decoding error: duplicate field "data.a", unknown field "bogus"');
    const fatal = await h.req('POST', `${CM}?fieldValidation=Strict`, '{"metadata":{"name":"f","name":"f"},"data":{"a":1},"x":1}');
    expect(fatal.status).toBe(400);
    expect(fatal.body.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });

  it('warns about, rejects or drops unknown fields per fieldValidation', async () => {
    const warn = await h.req('POST', CM, { metadata: { name: 'w', bogus: 1 }, data: {}, extra: true });
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"extra\\""');
    expect(warn.body.extra).toBeUndefined();
    const strict = await h.req('POST', `${CM}?fieldValidation=Strict`, { metadata: { name: 's' }, extra: true, more: 1 });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('strict decoding error: unknown field "extra", unknown field "more"');
    const ignore = await h.req('POST', `${CM}?fieldValidation=Ignore`, { metadata: { name: 'i' }, extra: true });
    expect(ignore.status).toBe(201);
    expect(ignore.headers.get('warning')).toBeNull();
  });

  it('dry-run writes nothing', async () => {
    const res = await h.req('POST', `${CM}?dryRun=All`, configMap('dry'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toBe('dry');
    expect((await h.req('GET', `${CM}/dry`)).status).toBe(404);
  });

  it('answers every failure with a Status: unknown paths 404, unsupported verbs 405, bad media 406/415', async () => {
    const unknown = await h.req('GET', '/api/v1/namespaces/default/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    expect((await h.req('GET', '/nope')).status).toBe(404);
    const postItem = await h.req('POST', `${CM}/named`, configMap('named'));
    expect(postItem.status).toBe(405);
    expect(postItem.body.message).toBe('POST is not supported on resources of kind "configmaps"');
    const notAllowed = await h.req('GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.body.reason).toBe('MethodNotAllowed');
    expect((await h.req('GET', CM, undefined, { accept: 'text/html' })).status).toBe(406);
    expect((await h.req('POST', CM, 'x', { 'content-type': 'text/plain' })).status).toBe(415);
  });
});

describe('schema defaults', () => {
  it('are applied to absent fields on create (wardle Flunder spec.referenceType defaults to Flunder)', async () => {
    const h = await startHarness();
    const F = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
    const made = await h.req('POST', F, { metadata: { name: 'f1' }, spec: { reference: 'x' } });
    expect(made.status).toBe(201);
    expect(made.body.spec).toEqual({ reference: 'x', referenceType: 'Flunder' });
    const given = await h.req('POST', F, { metadata: { name: 'f2' }, spec: { referenceType: 'Fischer' } });
    expect(given.body.spec).toEqual({ referenceType: 'Fischer' });
  });
});
