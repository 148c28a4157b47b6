import { describe, expect, it } from 'vitest';
import { createMemoryBackend } from '@kapi/storage';
import { group as wardle } from '@kapi/api-wardle';
import { createApiServer, type AdmissionPlugin, type Strategy } from '../src/index.js';
import { ALL_GROUPS, startHarness, dataPlugin } from './harness.js';

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

describe('forced deletion of corrupt objects', () => {
  const KEY = '/registry/configmaps/default/broken';
  const corrupt = async (h: Awaited<ReturnType<typeof startHarness>>) => {
    await h.storage.create(KEY, new TextEncoder().encode('{"this is": not json'));
  };

  it('a corrupt object fails reads and normal deletes with the corrupt-object error', async () => {
    const h = await startHarness();
    await corrupt(h);
    const get = await h.req('GET', `${CM}/broken`);
    expect(get.status).toBe(500);
    expect(get.body.message).toMatch(/^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/broken/);
    expect((await h.req('DELETE', `${CM}/broken`)).status).toBe(500);
    const off = await h.req('DELETE', `${CM}/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(off.status).toBe(422);
    expect(off.body.message).toContain('not allowed when the AllowUnsafeMalformedObjectDeletion feature gate is disabled');
  });

  it('with the gate, the option removes it; with other options it is 400; on a readable object it is refused', async () => {
    const h = await startHarness({ AllowUnsafeMalformedObjectDeletion: true });
    await corrupt(h);
    const mixed = await h.req('DELETE', `${CM}/broken`, { ignoreStoreReadErrorWithClusterBreakingPotential: true, gracePeriodSeconds: 0 });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toBe('ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with gracePeriodSeconds');
    const forced = await h.req('DELETE', `${CM}/broken`, { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await h.req('GET', `${CM}/broken`)).status).toBe(404);
    await h.req('POST', CM, { metadata: { name: 'fine', finalizers: ['example.com/keep'] } });
    const readable = await h.req('DELETE', `${CM}/fine?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(readable.status).toBe(400);
    expect(readable.body.message).toContain('is exclusively used to delete corrupt object(s)');
    expect((await h.req('GET', `${CM}/fine`)).body.metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('dry run of every write', () => {
  it('answers with the normal status and body and persists nothing', async () => {
    const h = await startHarness();
    const created = (await h.req('POST', CM, { metadata: { name: 'dr' }, data: { a: '1' } })).body;
    const put = await h.req('PUT', `${CM}/dr?dryRun=All`, { ...created, data: { a: '2' } });
    expect([put.status, put.body.data]).toEqual([200, { a: '2' }]);
    const patch = await h.req('PATCH', `${CM}/dr?dryRun=All`, { data: { b: '3' } }, { 'content-type': 'application/merge-patch+json' });
    expect([patch.status, patch.body.data]).toEqual([200, { a: '1', b: '3' }]);
    const apply = await h.req('PATCH', `${CM}/new?dryRun=All&fieldManager=t`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: new\n', APPLY);
    expect(apply.status).toBe(201);
    const del = await h.req('DELETE', `${CM}/dr?dryRun=All`);
    expect(del.status).toBe(200);
    const after = await h.req('GET', `${CM}/dr`);
    expect(after.body.data).toEqual({ a: '1' });
    expect(after.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect((await h.req('GET', `${CM}/new`)).status).toBe(404);
    expect((await h.req('PUT', `${CM}/dr?dryRun=Some`, created)).status).toBe(400);
    // Reads have no dryRun option: kube ignores the parameter there.
    expect((await h.req('GET', `${CM}/dr?dryRun=Some`)).status).toBe(200);
    expect((await h.req('GET', `${CM}?dryRun=x`)).status).toBe(200);
  });
});

describe('more write rules', () => {
  it('a patch carrying a stale metadata.resourceVersion is a 409', async () => {
    const h = await startHarness();
    const created = (await h.req('POST', CM, { metadata: { name: 'rv' } })).body;
    await h.req('PATCH', `${CM}/rv`, { data: { a: '1' } }, { 'content-type': 'application/merge-patch+json' });
    const stale = await h.req('PATCH', `${CM}/rv`, { metadata: { resourceVersion: created.metadata.resourceVersion }, data: { a: '2' } }, { 'content-type': 'application/merge-patch+json' });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
  });

  it('detects duplicate keys in CBOR bodies too', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    // {"kind": "ConfigMap", "metadata": {"name": "c", "name": "c"}}, self-described
    const body = Uint8Array.from(Buffer.from('d9d9f7a2646b696e6469436f6e6669674d6170686d65746164617461a2646e616d656163646e616d656163', 'hex'));
    const res = await h.server.fetch(new Request(`http://x${CM}?fieldValidation=Strict`, { method: 'POST', body, headers: { 'content-type': 'application/cbor' } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('strict decoding error: duplicate field "metadata.name"');
  });
});

describe('forced deletion needs both verbs', () => {
  it('is 403 for a user who may delete but not unsafe-delete-ignore-read-errors', async () => {
    const storage = createMemoryBackend();
    const server = createApiServer({
      storage,
      plugins: ALL_GROUPS.map(dataPlugin),
      featureGates: { AllowUnsafeMalformedObjectDeletion: true },
      authenticators: [(req) => {
        const name = req.headers.get('x-test-user');
        return name ? { username: name, groups: [] } : undefined;
      }],
      authorizers: [{
        name: 'test',
        authorize: (a) => ({ decision: a.verb === 'unsafe-delete-ignore-read-errors' && a.user.username === 'limited' ? 'no-opinion' : 'allow' }),
        rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
      }],
    });
    await server.start();
    await storage.create('/registry/configmaps/default/broken', new TextEncoder().encode('garbage'));
    const del = (user: string) =>
      server.fetch(new Request(`http://x${CM}/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true`, { method: 'DELETE', headers: { 'x-test-user': user } }));
    const denied = await del('limited');
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { message: string }).message).toBe(
      'configmaps "broken" is forbidden: User "limited" cannot unsafe-delete-ignore-read-errors resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await del('admin')).status).toBe(200);
  });
});

describe('the order of a write (mutating admission, strategy, validating admission)', () => {
  const F = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
  const serve = async (strategy: Strategy, admission: AdmissionPlugin[] = []) => {
    const plugins = ALL_GROUPS.map((g) => (g === wardle ? { ...dataPlugin(g), strategies: { Flunder: strategy } } : dataPlugin(g)));
    return startHarness({}, { plugins, admission });
  };

  it("returns the strategy's warnings in Warning headers on create, update and patch", async () => {
    const h = await serve({
      warnings: (obj, old) => [`${old ? 'updating' : 'creating'} ${(obj.metadata as { name: string }).name}`],
    });
    const created = await h.req('POST', F, { metadata: { name: 'w' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe('299 - "creating w"');
    const updated = await h.req('PUT', `${F}/w`, { ...created.body, spec: { reference: 'r' } });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('warning')).toBe('299 - "updating w"');
    const patched = await h.req('PATCH', `${F}/w`, { spec: { reference: 's' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.headers.get('warning')).toBe('299 - "updating w"');
  });

  it('mutating admission sees the object before the strategy and system fields; validating admission after', async () => {
    const seen: string[] = [];
    const observe: AdmissionPlugin = {
      name: 'Observe',
      operations: ['CREATE'],
      mutate: (a) => void (a.resource.kind === 'Flunder' && seen.push(`mutate name=${a.name || '-'} uid=${(a.object!.metadata as { uid?: string }).uid ?? '-'} status=${a.object!.status ? 'set' : '-'}`)),
      validate: (a) => void (a.resource.kind === 'Flunder' && seen.push(`validate name=${a.name.startsWith('gen-') ? 'generated' : a.name} uid=${(a.object!.metadata as { uid?: string }).uid ? 'set' : '-'} status=${JSON.stringify(a.object!.status)}`)),
    };
    const h = await serve({ prepareForCreate: (obj) => void (obj.status = { phase: 'New' }) }, [observe]);
    const created = await h.req('POST', F, { metadata: { generateName: 'gen-' } });
    expect(created.status).toBe(201);
    expect(seen).toEqual(['mutate name=- uid=- status=-', 'validate name=generated uid=set status={"phase":"New"}']);
    expect(created.body.status).toEqual({ phase: 'New' });
  });

  it('a mutating plugin that sets a field the strategy clears is overridden, as in kube (status on create)', async () => {
    const setStatus: AdmissionPlugin = { name: 'SetStatus', operations: ['CREATE'], mutate: (a) => void (a.object!.status = { phase: 'FromAdmission' }) };
    const h = await startHarness({}, { admission: [setStatus] });
    const created = await h.req('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({});
  });
});

describe('validation runs once per write', () => {
  it('the decode step checks types only; the Store validates everything once (create, update, patch)', async () => {
    const calls = { validate: 0, types: 0 };
    const count = <T extends Record<string, (o: never) => unknown>>(validators: T, key: 'validate' | 'types'): T =>
      Object.fromEntries(Object.entries(validators).map(([k, v]) => [k, (o: never) => (k.endsWith('/Flunder') && calls[key]++, v(o))])) as T;
    const counted = { ...wardle, validators: count(wardle.validators, 'validate'), typeValidators: count(wardle.typeValidators!, 'types') };
    const plugins = ALL_GROUPS.map((g) => (g === wardle ? { ...dataPlugin(g), definition: counted } : dataPlugin(g)));
    const h = await startHarness({}, { plugins });
    const F = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
    const created = await h.req('POST', F, { metadata: { name: 'once' } });
    expect(created.status).toBe(201);
    // Types twice: at decode in v1alpha1, and once more the object converted to v1beta1 (the storage version) before
    // it is stored (what a conversion restored from an annotation is checked too).
    expect(calls).toEqual({ validate: 1, types: 2 });
    await h.req('PUT', `${F}/once`, { ...created.body, spec: { reference: 'r' } });
    await h.req('PATCH', `${F}/once`, { spec: { reference: 's' } }, { 'content-type': 'application/merge-patch+json' });
    expect(calls).toEqual({ validate: 3, types: 6 });
    // A wrong type is still the decoder's 400, before anything else.
    const wrong = await h.req('POST', F, { metadata: { name: 'w' }, spec: { reference: 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('cannot be handled as a Flunder');
  });
});
