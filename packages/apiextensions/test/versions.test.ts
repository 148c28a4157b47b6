import { afterEach, describe, expect, it } from 'vitest';
import { CRDS, fixture, startHarness, type Harness } from './harness.js';

const path = (version: string) => `/apis/example.com/${version}/namespaces/default/widgets`;
const widget = (version: string, name: string) => ({ apiVersion: `example.com/${version}`, kind: 'Widget', metadata: { name }, spec: { size: 'M' } });
const stored = async (h: Harness, name: string) => JSON.parse(new TextDecoder().decode((await h.storage.get(`/registry/example.com/widgets/default/${name}`)).kv!.value));

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

describe('a CRD with several versions', () => {
  it('stores every object in the storage version and answers each request in its own (conversion None)', async () => {
    h = await startHarness();
    await h.establish(fixture('widgets-crd.yaml'));
    const created = await h.req('POST', path('v1beta1'), widget('v1beta1', 'a'));
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1beta1');
    expect((await stored(h, 'a')).apiVersion).toBe('example.com/v1');
    expect((await h.req('GET', `${path('v1')}/a`)).body.apiVersion).toBe('example.com/v1');
    expect((await h.req('GET', path('v1beta1'))).body.items.map((i: any) => i.apiVersion)).toEqual(['example.com/v1beta1']);
    const updated = await h.req('PATCH', `${path('v1beta1')}/a`, { spec: { size: 'L' } }, { 'content-type': 'application/merge-patch+json' });
    expect(updated.body).toMatchObject({ apiVersion: 'example.com/v1beta1', spec: { size: 'L' } });
    expect(await stored(h, 'a')).toMatchObject({ apiVersion: 'example.com/v1', spec: { size: 'L' } });
  });

  it('prunes what it converts with the schema of the version converted to: a field only the written version keeps is not stored', async () => {
    h = await startHarness();
    const crd = fixture('widgets-crd.yaml');
    // v1beta1 keeps any field in spec; v1, the storage version, knows only size.
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-preserve-unknown-fields'] = true;
    await h.establish(crd);
    const created = await h.req('POST', path('v1beta1'), { ...widget('v1beta1', 'loose'), spec: { size: 'S', junk: 1 } });
    expect(created.status).toBe(201);
    expect((await stored(h, 'loose')).spec).toEqual({ size: 'S' });
    expect((await h.req('GET', `${path('v1')}/loose`)).body.spec).toEqual({ size: 'S' });
    // The answer is the stored object, in the version asked for.
    expect(created.body.spec).toEqual({ size: 'S' });
  });

  it('sends kube\'s deprecation warning on every request to a deprecated version', async () => {
    h = await startHarness();
    await h.establish(fixture('widgets-crd.yaml'));
    const warning = '299 - "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"';
    expect((await h.req('POST', path('v1beta1'), widget('v1beta1', 'a'))).headers.get('warning')).toBe(warning);
    expect((await h.req('GET', path('v1beta1'))).headers.get('warning')).toBe(warning);
    expect((await h.req('GET', path('v1'))).headers.get('warning')).toBeNull();
    // kube's apiserver_requested_deprecated_apis marks the deprecated version requested, and only it.
    const { values } = await h.server.metrics.registry.getSingleMetric('apiserver_requested_deprecated_apis')!.get();
    expect(values.map((v) => ({ ...v.labels, value: v.value }))).toEqual([
      { group: 'example.com', version: 'v1beta1', resource: 'widgets', subresource: '', removed_release: '', value: 1 },
    ]);
  });

  it('records a new storage version in status.storedVersions and reads objects stored in the old one', async () => {
    h = await startHarness();
    const crd = await h.establish(fixture('widgets-crd.yaml'));
    await h.req('POST', path('v1'), widget('v1', 'old'));
    crd.spec.versions[0].storage = true;
    crd.spec.versions[1].storage = false;
    const updated = await h.req('PUT', `${CRDS}/widgets.example.com`, crd);
    expect(updated.status).toBe(200);
    expect(updated.body.status.storedVersions).toEqual(['v1', 'v1beta1']);
    // The controller serves the changed CRD right after: the first object written since is stored in v1beta1.
    let n = 0;
    const name = await h.until(async () => {
      const next = `new${n++}`;
      await h!.req('POST', path('v1'), widget('v1', next));
      return (await stored(h!, next)).apiVersion === 'example.com/v1beta1' && next;
    });
    const items = (await h.req('GET', path('v1'))).body.items;
    expect(items.map((i: any) => i.apiVersion)).toEqual(items.map(() => 'example.com/v1'));
    expect(items.map((i: any) => i.metadata.name)).toContain('old');
    expect(items.map((i: any) => i.metadata.name)).toContain(name);
  });

  it('migrates objects stored in an old storage version with unchanged updates, and leaves the others alone', async () => {
    h = await startHarness();
    const crd = await h.establish(fixture('widgets-crd.yaml'));
    await h.req('POST', path('v1'), widget('v1', 'old'));
    crd.spec.versions[0].storage = true;
    crd.spec.versions[1].storage = false;
    expect((await h.req('PUT', `${CRDS}/widgets.example.com`, crd)).status).toBe(200);
    await h.until(async () => {
      await h!.req('POST', path('v1'), widget('v1', 'probe'));
      const inNew = (await stored(h!, 'probe')).apiVersion === 'example.com/v1beta1';
      await h!.req('DELETE', `${path('v1')}/probe`);
      return inNew;
    });
    expect((await stored(h, 'old')).apiVersion).toBe('example.com/v1');
    // What `kubectl get widgets -A -o json | kubectl replace -f -` sends: each object back, unchanged.
    const old = (await h.req('GET', `${path('v1')}/old`)).body;
    const replaced = await h.req('PUT', `${path('v1')}/old`, old);
    expect(replaced.status).toBe(200);
    expect(replaced.body.spec).toEqual(old.spec);
    expect(replaced.body.metadata.resourceVersion).not.toBe(old.metadata.resourceVersion);
    expect(await stored(h, 'old')).toMatchObject({ apiVersion: 'example.com/v1beta1', spec: { size: 'M' } });
    // An object already in the storage version is not rewritten by an unchanged update.
    const again = await h.req('PUT', `${path('v1')}/old`, replaced.body);
    expect(again.body.metadata.resourceVersion).toBe(replaced.body.metadata.resourceVersion);
  });

  it('converts and encodes a live event once per version, however many watchers get it', async () => {
    h = await startHarness();
    await h.establish(fixture('widgets-crd.yaml'));
    const abort = new AbortController();
    const watchers = await Promise.all(
      ['v1', 'v1', 'v1', 'v1beta1', 'v1beta1', 'v1beta1'].map((version) =>
        h!.server.fetch(new Request(`http://kapi.test${path(version)}?watch=1&resourceVersion=0`, { signal: abort.signal })),
      ),
    );
    const firstEvent = (res: Response) => res.body!.getReader().read().then(({ value }) => JSON.parse(new TextDecoder().decode(value).split('\n')[0]));
    const events = watchers.map(firstEvent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await h.req('POST', path('v1'), widget('v1', 'a'))).status).toBe(201);
    const received = await Promise.all(events);
    expect(received.map((e) => `${e.type} ${e.object.apiVersion} ${e.object.metadata.name}`)).toEqual([
      ...Array(3).fill('ADDED example.com/v1 a'),
      ...Array(3).fill('ADDED example.com/v1beta1 a'),
    ]);
    const counted = async (version: string) => {
      const { values } = await h!.server.metrics.registry.getSingleMetric('kapi_watch_event_encodings_total')!.get();
      return values.find((v) => v.labels.version === version && v.labels.kind === 'Widget')?.value;
    };
    expect(await counted('v1')).toBe(1);
    expect(await counted('v1beta1')).toBe(1);
    abort.abort();
  });

  describe('server-side apply from two versions', () => {
    const APPLY = { 'content-type': 'application/apply-patch+yaml' };
    const apply = (version: string, manager: string, spec: Record<string, unknown>, force = false) =>
      h!.req('PATCH', `${path(version)}/w?fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: `example.com/${version}`, kind: 'Widget', metadata: { name: 'w' }, spec }, APPLY);
    const entries = (obj: any) => obj.metadata.managedFields.map((e: any) => `${e.manager} ${e.operation} ${e.apiVersion} ${Object.keys(e.fieldsV1['f:spec'] ?? {}).sort().join(',')}`).sort();

    it('conflicts with the applier of the other version, and force moves the field; entries keep their apiVersion', async () => {
      h = await startHarness();
      await h.establish(fixture('widgets-crd.yaml'));
      expect((await apply('v1beta1', 'alice', { size: 'S' })).status).toBe(201);
      const conflict = await apply('v1', 'bob', { size: 'L' });
      expect(conflict.status).toBe(409);
      expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.size');
      const forced = await apply('v1', 'bob', { size: 'L' }, true);
      expect(forced.status).toBe(200);
      expect(entries(forced.body)).toEqual(['bob Apply example.com/v1 f:size']);
      // alice applies again what she had: the conflict is now with bob.
      const back = await apply('v1beta1', 'alice', { size: 'S' });
      expect(back.status).toBe(409);
      expect(back.body.message).toBe('Apply failed with 1 conflict: conflict with "bob": .spec.size');
      // The same value from both: shared, each entry in its own version.
      expect((await apply('v1beta1', 'alice', { size: 'L' })).status).toBe(200);
      const read = await h.req('GET', `${path('v1')}/w`);
      expect(entries(read.body)).toEqual(['alice Apply example.com/v1beta1 f:size', 'bob Apply example.com/v1 f:size']);
    });

    it('drops the entries of a version removed from the CRD at the next write', async () => {
      h = await startHarness();
      const crd = await h.establish(fixture('widgets-crd.yaml'));
      expect((await apply('v1beta1', 'alice', { size: 'S' })).status).toBe(201);
      crd.spec.versions = crd.spec.versions.filter((v: any) => v.name !== 'v1beta1');
      expect((await h.req('PUT', `${CRDS}/widgets.example.com`, crd)).status).toBe(200);
      await h.until(async () => (await h!.req('GET', path('v1beta1'))).status === 404);
      // alice's v1beta1 entry names a version no longer served: bob's apply drops it instead of conflicting.
      const next = await apply('v1', 'bob', { size: 'L' });
      expect(next.status).toBe(200);
      expect(entries(next.body)).toEqual(['bob Apply example.com/v1 f:size']);
    });
  });
});
