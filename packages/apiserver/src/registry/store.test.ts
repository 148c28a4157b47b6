import { isStatusError, parseFieldSelector, parseLabelSelector, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_GROUPS, ALL_PLUGINS } from '../../test/harness.js';
import { createAdmissionChain } from '../admission/chain.js';
import type { AdmissionPlugin } from '../admission/types.js';
import type { Strategy } from '../plugin.js';
import type { ObjectStorage } from '../storage/interfaces.js';
import { createObjectStorage } from '../storage/object-storage.js';
import { ALL_OBJECTS } from './list-options.js';
import { createResourceRegistry, type ResourceRegistry } from './resources.js';
import { createStore, type RequestContext, type Store, type WriteType } from './store.js';

const USER = { username: 'tester', groups: ['system:authenticated'] };
const FLUNDER = 'wardle.example.com';

/** The message and code of a Status error, for comparing failures. */
async function failure(p: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (!isStatusError(err)) throw err;
    return { code: Number(err.status.code), reason: String(err.status.reason), message: String(err.status.message) };
  }
  throw new Error('expected a Status error');
}

describe('Store', () => {
  let backend: StorageBackend;
  let registry: ResourceRegistry;
  let store: Store;
  let writes: [WriteType, string][];

  const build = (options: { admission?: AdmissionPlugin[]; flunder?: Strategy; wrap?: (s: ObjectStorage) => ObjectStorage } = {}) => {
    backend = createMemoryBackend();
    const plugins = ALL_PLUGINS.map((p) => (p.definition.group === FLUNDER && options.flunder ? { ...p, strategies: { Flunder: options.flunder } } : p));
    registry = createResourceRegistry(plugins);
    writes = [];
    store = createStore({
      storage: (options.wrap ?? ((s) => s))(createObjectStorage(backend)),
      admission: createAdmissionChain(options.admission ?? []),
      onWrite: (entry, type, obj) => writes.push([type, `${entry.info.plural}/${(obj.metadata as { name: string }).name}`]),
    });
  };
  const ctx = (plural: string, namespace = 'default', extra: Partial<RequestContext> = {}): RequestContext => {
    const entry = registry.entries.find((e) => e.info.plural === plural)!;
    return { entry, namespace: entry.info.scope === 'Namespaced' ? namespace : '', user: USER, dryRun: false, subresource: '', warnings: [], ...extra };
  };
  const cm = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name, ...extra }, data: { a: '1' } });

  beforeEach(() => build());

  describe('create', () => {
    it('stores the object with uid, creationTimestamp and resourceVersion, and tells onWrite', async () => {
      const created = await store.create(ctx('configmaps'), cm('a'));
      expect(created).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { a: '1' } });
      const meta = created.metadata as Record<string, string>;
      expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Number(meta.resourceVersion)).toBeGreaterThan(0);
      expect(writes).toEqual([['ADDED', 'configmaps/a']]);
      expect(await store.get(ctx('configmaps'), 'a')).toEqual(created);
    });

    it('refuses a taken name (409 AlreadyExists) and a body namespace other than the URL one (400)', async () => {
      await store.create(ctx('configmaps'), cm('a'));
      expect(await failure(store.create(ctx('configmaps'), cm('a')))).toMatchObject({ code: 409, reason: 'AlreadyExists' });
      expect(await failure(store.create(ctx('configmaps'), cm('b', { namespace: 'other' })))).toEqual({
        code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request',
      });
    });

    it('generates a name from generateName, another one when the first is taken, and gives up after 8 tries', async () => {
      const random = vi.spyOn(Math, 'random');
      try {
        random.mockReturnValue(0);
        const first = await store.create(ctx('configmaps'), cm('', { generateName: 'gen-' }));
        const taken = (first.metadata as { name: string }).name;
        expect(taken).toMatch(/^gen-[a-z0-9]{5}$/);
        // The next name the generator picks is taken: it picks another one.
        let calls = 0;
        random.mockImplementation(() => (calls++ < 5 ? 0 : 0.5));
        const second = await store.create(ctx('configmaps'), cm('', { generateName: 'gen-' }));
        expect((second.metadata as { name: string }).name).not.toBe(taken);
        // Every pick taken: kube's 409 after a bounded number of tries.
        random.mockReturnValue(0);
        expect(await failure(store.create(ctx('configmaps'), cm('', { generateName: 'gen-' })))).toMatchObject({ code: 409, reason: 'AlreadyExists' });
        // A client-given name is never replaced: a taken one is a plain 409.
        expect(await failure(store.create(ctx('configmaps'), cm(taken, { generateName: 'gen-' })))).toMatchObject({ code: 409 });
      } finally {
        random.mockRestore();
      }
      expect((await store.list(ctx('configmaps'), ALL_OBJECTS)).items).toHaveLength(2);
    });

    it('resets status on create for kinds with a status subresource (to the schema default), and sets generation 1 for kinds with a spec', async () => {
      const d = await store.create(ctx('deployments'), {
        metadata: { name: 'd', generation: 7 },
        spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
        status: { replicas: 5 },
      });
      expect(d.status).toEqual({});
      expect((d.metadata as { generation: number }).generation).toBe(1);
    });

    it('runs mutating admission before the strategy and validating admission after it, and collects warnings', async () => {
      const seen: string[] = [];
      build({
        admission: [{
          name: 'Order',
          mutate: (a) => void (a.resource.kind === 'Flunder' && seen.push(`mutate uid=${(a.object!.metadata as { uid?: string }).uid ?? '-'}`)),
          validate: (a) => void (a.resource.kind === 'Flunder' && seen.push(`validate uid=${(a.object!.metadata as { uid?: string }).uid ? 'set' : '-'}`)),
        }],
        flunder: { prepareForCreate: () => void seen.push('strategy'), warnings: () => ['careful'] },
      });
      const c = ctx('flunders');
      await store.create(c, { metadata: { name: 'f' } });
      expect(seen).toEqual(['mutate uid=-', 'strategy', 'validate uid=set']);
      expect(c.warnings).toEqual(['careful']);
    });

    it('is refused by a validating plugin before anything is stored', async () => {
      build({ admission: [{ name: 'Deny', validate: () => { throw new Error('denied'); } }] });
      await expect(store.create(ctx('configmaps'), cm('x'))).rejects.toThrow('denied');
      expect(await store.find(ctx('configmaps'), 'x')).toBeUndefined();
      expect(writes).toEqual([]);
    });
  });

  describe('update', () => {
    it('takes creationTimestamp in any RFC 3339 form of the same instant (kept as stored); another time is 422', async () => {
      const created = await store.create(ctx('configmaps'), cm('t'));
      const stored = (created.metadata as { creationTimestamp: string }).creationTimestamp;
      const withTime = (text: string) => (current: KubeObject | undefined) => ({ ...current!, metadata: { ...current!.metadata, creationTimestamp: text } });
      // The Python client writes datetime.isoformat(): +00:00 where kube writes Z.
      const { obj } = await store.update(ctx('configmaps'), 't', withTime(stored.replace('Z', '+00:00')));
      expect((obj.metadata as { creationTimestamp: string }).creationTimestamp).toBe(stored);
      const later = new Date(Date.parse(stored) + 1000).toISOString().replace('.000Z', 'Z');
      for (const text of [later, stored.replace('Z', '.5Z'), 'not a time']) {
        expect(await failure(store.update(ctx('configmaps'), 't', withTime(text)))).toMatchObject({
          code: 422, message: `ConfigMap "t" is invalid: metadata.creationTimestamp: Invalid value: "${text}": field is immutable`,
        });
      }
    });

    it('replaces the object, keeping system fields, and 409s a stale resourceVersion', async () => {
      const created = await store.create(ctx('configmaps'), cm('u'));
      const rv = (created.metadata as { resourceVersion: string }).resourceVersion;
      const { obj, created: wasCreated } = await store.update(ctx('configmaps'), 'u', (current) => ({ ...current!, data: { a: '2' } }));
      expect(wasCreated).toBe(false);
      expect(obj.data).toEqual({ a: '2' });
      expect((obj.metadata as { uid: string }).uid).toBe((created.metadata as { uid: string }).uid);
      expect(await failure(store.update(ctx('configmaps'), 'u', () => ({ ...cm('u', { resourceVersion: rv }) })))).toMatchObject({
        code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on configmaps "u": the object has been modified; please apply your changes to the latest version and try again',
      });
    });

    it('writes nothing and keeps the resourceVersion when nothing changes', async () => {
      const created = await store.create(ctx('configmaps'), cm('same'));
      writes.length = 0;
      const { obj } = await store.update(ctx('configmaps'), 'same', (current) => current!);
      expect((obj.metadata as { resourceVersion: string }).resourceVersion).toBe((created.metadata as { resourceVersion: string }).resourceVersion);
      expect(writes).toEqual([]);
    });

    it('creates a missing object where the kind allows it, and 404s where not or for subresources', async () => {
      // kube's ConfigMap strategy returns false from AllowCreateOnUpdate (its resource header says so); an update
      // that allows creating (server-side apply) creates.
      expect(await failure(store.update(ctx('configmaps'), 'none', () => cm('none')))).toMatchObject({ code: 404 });
      const { created } = await store.update(ctx('configmaps'), 'new', () => cm('new'), { allowCreate: true });
      expect(created).toBe(true);
      expect(writes).toEqual([['ADDED', 'configmaps/new']]);
      expect(await failure(store.update(ctx('configmaps'), 'none', () => cm('none'), { allowCreate: false }))).toMatchObject({ code: 404 });
      expect(await failure(store.update(ctx('deployments', 'default', { subresource: 'status' }), 'none', () => ({ metadata: { name: 'none' } })))).toMatchObject({ code: 404 });
    });

    it('refuses a body naming another object (400)', async () => {
      await store.create(ctx('configmaps'), cm('n'));
      expect(await failure(store.update(ctx('configmaps'), 'n', () => cm('other')))).toEqual({
        code: 400, reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (n)',
      });
    });

    it('removes an object being deleted once its last finalizer goes', async () => {
      await store.create(ctx('configmaps'), cm('fin', { finalizers: ['example.com/hold'] }));
      const held = await store.delete(ctx('configmaps'), 'fin');
      expect(held.removed).toBe(false);
      writes.length = 0;
      const result = await store.update(ctx('configmaps'), 'fin', (current) => ({ ...current!, metadata: { ...current!.metadata, finalizers: [] } }));
      expect(result.removed).toBe(true);
      expect(writes).toEqual([['DELETED', 'configmaps/fin']]);
      expect(await store.find(ctx('configmaps'), 'fin')).toBeUndefined();
    });
  });

  describe('delete', () => {
    it('removes an object without finalizers at once; 404 when missing', async () => {
      await store.create(ctx('configmaps'), cm('d'));
      const result = await store.delete(ctx('configmaps'), 'd');
      expect(result.removed).toBe(true);
      expect(await store.find(ctx('configmaps'), 'd')).toBeUndefined();
      expect(await failure(store.delete(ctx('configmaps'), 'd'))).toMatchObject({ code: 404, reason: 'NotFound' });
    });

    it('keeps an object with finalizers, with deletionTimestamp set once; a second delete changes nothing', async () => {
      await store.create(ctx('configmaps'), cm('held', { finalizers: ['example.com/hold'] }));
      const first = await store.delete(ctx('configmaps'), 'held');
      const meta = first.obj.metadata as { deletionTimestamp?: string; resourceVersion: string };
      expect(first.removed).toBe(false);
      expect(meta.deletionTimestamp).toBeDefined();
      const second = await store.delete(ctx('configmaps'), 'held');
      expect(second.removed).toBe(false);
      expect((second.obj.metadata as { resourceVersion: string }).resourceVersion).toBe(meta.resourceVersion);
    });

    it('checks uid and resourceVersion preconditions (409)', async () => {
      await store.create(ctx('configmaps'), cm('p'));
      expect(await failure(store.delete(ctx('configmaps'), 'p', { preconditions: { uid: 'nope' } }))).toMatchObject({ code: 409 });
      expect(await failure(store.delete(ctx('configmaps'), 'p', { preconditions: { resourceVersion: '999' } }))).toMatchObject({ code: 409 });
      expect(await store.find(ctx('configmaps'), 'p')).toBeDefined();
    });

    it('deleteCollection deletes what the selector selects and reports held objects', async () => {
      await store.create(ctx('configmaps'), cm('x1', { labels: { app: 'x' } }));
      await store.create(ctx('configmaps'), cm('x2', { labels: { app: 'x' }, finalizers: ['example.com/hold'] }));
      await store.create(ctx('configmaps'), cm('y', { labels: { app: 'y' } }));
      const { parseLabelSelector } = await import('@kapi/apimachinery');
      const { results } = await store.deleteCollection(ctx('configmaps'), { ...ALL_OBJECTS, labelSelector: parseLabelSelector('app=x') });
      expect(results.map((r) => [(r.obj.metadata as { name: string }).name, r.removed])).toEqual([['x1', true], ['x2', false]]);
      expect((await store.list(ctx('configmaps'), ALL_OBJECTS)).items.map((i) => (i.metadata as { name: string }).name)).toEqual(['x2', 'y']);
    });
  });

  describe('dry run', () => {
    it('runs every step but the write: create, update and delete store nothing and tell nobody', async () => {
      const dry = ctx('configmaps', 'default', { dryRun: true });
      const created = await store.create(dry, cm('dry'));
      expect((created.metadata as { uid: string }).uid).toBeDefined();
      expect(await store.find(ctx('configmaps'), 'dry')).toBeUndefined();
      await store.create(ctx('configmaps'), cm('real'));
      writes.length = 0;
      expect((await store.update(dry, 'real', (c) => ({ ...c!, data: { a: 'dry' } }))).obj.data).toEqual({ a: 'dry' });
      expect((await store.delete(dry, 'real')).removed).toBe(true);
      expect((await store.find(ctx('configmaps'), 'real'))!.data).toEqual({ a: '1' });
      expect(writes).toEqual([]);
    });

    it('fails as the real request would: AlreadyExists, NotFound', async () => {
      await store.create(ctx('configmaps'), cm('taken'));
      const dry = ctx('configmaps', 'default', { dryRun: true });
      expect(await failure(store.create(dry, cm('taken')))).toMatchObject({ code: 409, reason: 'AlreadyExists' });
      expect(await failure(store.delete(dry, 'missing'))).toMatchObject({ code: 404 });
    });
  });

  describe('forceDeleteCorrupt', () => {
    it('needs the gate (422), refuses a readable object (400), and removes a corrupt one', async () => {
      await store.create(ctx('configmaps'), cm('fine'));
      await backend.create('/registry/configmaps/default/broken', new TextEncoder().encode('{not json'));
      expect(await failure(store.forceDeleteCorrupt(ctx('configmaps'), 'broken', {}, false))).toMatchObject({ code: 422 });
      expect(await failure(store.forceDeleteCorrupt(ctx('configmaps'), 'fine', {}, true))).toMatchObject({ code: 400 });
      expect(await failure(store.get(ctx('configmaps'), 'broken'))).toMatchObject({ code: 500 });
      await store.forceDeleteCorrupt(ctx('configmaps'), 'broken', {}, true);
      expect(await failure(store.get(ctx('configmaps'), 'broken'))).toMatchObject({ code: 404 });
    });
  });
  const nameOf = (obj: KubeObject) => (obj.metadata as { name: string }).name;
  const rvOf = (obj: KubeObject) => (obj.metadata as { resourceVersion: string }).resourceVersion;
  const names = async (plural: string, namespace = 'default') => (await store.list(ctx(plural, namespace), ALL_OBJECTS)).items.map(nameOf);

  describe('create, further', () => {
    it('sets no generation on kinds without a spec, and drops a namespace given for a cluster-scoped kind', async () => {
      const c = await store.create(ctx('configmaps'), cm('g', { generation: 4 }));
      expect(c.metadata).not.toHaveProperty('generation');
      const role = await store.create(ctx('clusterroles'), { metadata: { name: 'r', namespace: 'default' }, rules: [] });
      expect(role.metadata).not.toHaveProperty('namespace');
      expect(await store.find(ctx('clusterroles'), 'r')).toBeDefined();
    });

    it('refuses an invalid object (422 Invalid) before storing or telling anyone', async () => {
      expect(await failure(store.create(ctx('configmaps'), cm('Not_A_Name')))).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(await names('configmaps')).toEqual([]);
      expect(writes).toEqual([]);
    });

    it('drops the client\'s status for kinds with a status subresource; a strategy that sets one wins', async () => {
      const f = await store.create(ctx('flunders'), { metadata: { name: 'f' }, status: { anything: 'x' } } as KubeObject);
      expect(f.status).toBeUndefined();
      const ns = await store.create(ctx('namespaces'), { metadata: { name: 'ns' }, status: { phase: 'Terminating' } });
      expect(ns.status).toEqual({ phase: 'Active' });
    });
  });

  describe('update, further', () => {
    it('runs mutating admission before the strategy (old generation) and validating admission after it (generation bumped)', async () => {
      const seen: string[] = [];
      const describeAttrs = (phase: string) => (a: Parameters<NonNullable<AdmissionPlugin['mutate']>>[0]) => {
        if (a.resource.kind !== 'Flunder' || a.operation !== 'UPDATE') return;
        const meta = a.object!.metadata as { generation?: number; annotations?: Record<string, string> };
        const old = a.oldObject!.spec as { reference?: string } | undefined;
        seen.push(`${phase} generation=${meta.generation} prepared=${meta.annotations?.prepared ?? '-'} old=${old?.reference ?? '-'}`);
      };
      build({
        admission: [{ name: 'Order', mutate: describeAttrs('mutate'), validate: describeAttrs('validate') }],
        flunder: { prepareForUpdate: (obj) => void ((obj.metadata as Record<string, unknown>).annotations = { prepared: 'yes' }) },
      });
      await store.create(ctx('flunders'), { metadata: { name: 'f' }, spec: { reference: 'a' } } as KubeObject);
      const { obj } = await store.update(ctx('flunders'), 'f', (current) => ({ ...current!, spec: { reference: 'b' } }));
      expect(seen).toEqual(['mutate generation=1 prepared=- old=a', 'validate generation=2 prepared=yes old=a']);
      expect((obj.metadata as { generation: number }).generation).toBe(2);
    });

    it('collects Strategy.warnings on update, once even when the write is retried after losing a race', async () => {
      build({ flunder: { warnings: (_obj, old) => [old ? 'updating flunder' : 'creating flunder'] } });
      const created = ctx('flunders');
      await store.create(created, { metadata: { name: 'f' } });
      expect(created.warnings).toEqual(['creating flunder']);
      const updated = ctx('flunders');
      let attempts = 0;
      const { obj } = await store.update(updated, 'f', async (current) => {
        // Another writer gets in between this attempt's read and its write: the Store tries again.
        if (attempts++ === 0) await store.update(ctx('flunders'), 'f', (c) => ({ ...c!, metadata: { ...c!.metadata, labels: { by: 'other' } } }));
        return { ...current!, spec: { reference: 'mine' } };
      });
      expect(attempts).toBe(2);
      expect(obj).toMatchObject({ metadata: { labels: { by: 'other' } }, spec: { reference: 'mine' } });
      expect(updated.warnings).toEqual(['updating flunder']);
    });

    it('is a 404 for a missing object when the kind does not allow create on update, or when the body names a resourceVersion', async () => {
      build({ flunder: { allowCreateOnUpdate: false } });
      expect(await failure(store.update(ctx('flunders'), 'none', () => ({ metadata: { name: 'none' } })))).toMatchObject({ code: 404, reason: 'NotFound' });
      expect(await failure(store.update(ctx('configmaps'), 'none', () => cm('none', { resourceVersion: '5' })))).toMatchObject({ code: 404 });
      // A caller may still force the create (server-side apply does).
      expect((await store.update(ctx('flunders'), 'forced', () => ({ metadata: { name: 'forced' } }), { allowCreate: true })).created).toBe(true);
      expect(writes).toEqual([['ADDED', 'flunders/forced']]);
    });

    it('keeps an object being deleted while finalizers remain, and its deletionTimestamp whatever the client sends', async () => {
      await store.create(ctx('configmaps'), cm('held', { finalizers: ['a.example.com/x', 'b.example.com/y'] }));
      const { obj: deleting } = await store.delete(ctx('configmaps'), 'held');
      const ts = (deleting.metadata as { deletionTimestamp: string }).deletionTimestamp;
      const { obj, removed } = await store.update(ctx('configmaps'), 'held', (c) => ({
        ...c!, metadata: { ...c!.metadata, finalizers: ['b.example.com/y'], deletionTimestamp: undefined },
      }));
      expect(removed).toBeUndefined();
      expect(obj.metadata).toMatchObject({ finalizers: ['b.example.com/y'], deletionTimestamp: ts });
    });
  });

  describe('delete, further', () => {
    it('answers failed preconditions with kube\'s Conflict message, and keeps the object', async () => {
      const created = await store.create(ctx('configmaps'), cm('p'));
      const uid = (created.metadata as { uid: string }).uid;
      expect(await failure(store.delete(ctx('configmaps'), 'p', { preconditions: { uid: 'nope' } }))).toEqual({
        code: 409, reason: 'Conflict',
        message: `Operation cannot be fulfilled on configmaps "p": Precondition failed: UID in precondition: nope, UID in object meta: ${uid}`,
      });
      expect((await store.delete(ctx('configmaps'), 'p', { preconditions: { uid, resourceVersion: rvOf(created) } })).removed).toBe(true);
      expect(await failure(store.delete(ctx('configmaps'), 'p', { preconditions: { uid } }))).toMatchObject({ code: 404 });
    });

    it('asks validating admission, which can refuse it', async () => {
      const ops: string[] = [];
      build({ admission: [{ name: 'NoDelete', validate: (a) => {
        ops.push(`${a.operation} ${(a.oldObject?.metadata as { name?: string } | undefined)?.name ?? '-'}`);
        if (a.operation === 'DELETE') throw new Error('not today');
      } }] });
      await store.create(ctx('configmaps'), cm('kept'));
      await expect(store.delete(ctx('configmaps'), 'kept')).rejects.toThrow('not today');
      expect(ops).toEqual(['CREATE -', 'DELETE kept']);
      expect(await store.find(ctx('configmaps'), 'kept')).toBeDefined();
      expect(writes).toEqual([['ADDED', 'configmaps/kept']]);
    });

    it('tells onWrite only of real writes: a second delete of a held object writes nothing', async () => {
      await store.create(ctx('configmaps'), cm('h', { finalizers: ['example.com/hold'] }));
      await store.delete(ctx('configmaps'), 'h');
      await store.delete(ctx('configmaps'), 'h');
      await failure(store.update(ctx('configmaps'), 'h', (c) => ({ ...c!, metadata: { ...c!.metadata, resourceVersion: '1' } })));
      await store.update(ctx('configmaps'), 'h', (c) => ({ ...c!, metadata: { ...c!.metadata, finalizers: undefined } }));
      expect(writes).toEqual([['ADDED', 'configmaps/h'], ['MODIFIED', 'configmaps/h'], ['DELETED', 'configmaps/h']]);
    });
  });

  describe('deleteCollection, further', () => {
    it('deletes what label and field selectors select, in the request namespace only', async () => {
      for (const [name, app] of [['a1', 'a'], ['a2', 'a'], ['b1', 'b']]) await store.create(ctx('configmaps'), cm(name, { labels: { app } }));
      await store.create(ctx('configmaps', 'other'), cm('a1', { labels: { app: 'a' } }));
      await store.deleteCollection(ctx('configmaps'), { ...ALL_OBJECTS, labelSelector: parseLabelSelector('app=a'), fieldSelector: parseFieldSelector('metadata.name!=a2') });
      expect(await names('configmaps')).toEqual(['a2', 'b1']);
      expect(await names('configmaps', 'other')).toEqual(['a1']);
    });

    it('skips objects that are gone by the time their turn comes', async () => {
      build({
        wrap: (s) => ({
          ...s,
          // Someone else deletes `b` right after the list was read.
          getList: async (req) => {
            const page = await s.getList(req);
            if ((await backend.get('/registry/configmaps/default/b')).kv) await backend.delete('/registry/configmaps/default/b');
            return page;
          },
        }),
      });
      for (const name of ['a', 'b', 'c']) await store.create(ctx('configmaps'), cm(name));
      const { list, results } = await store.deleteCollection(ctx('configmaps'), ALL_OBJECTS);
      expect(list.items.map(nameOf)).toEqual(['a', 'b', 'c']);
      expect(results.map((r) => nameOf(r.obj))).toEqual(['a', 'c']);
      expect(await names('configmaps')).toEqual([]);
    });
  });

  describe('dry run, further', () => {
    it('fails a stale update with 409 and a missing one with 404, as the real request would', async () => {
      const created = await store.create(ctx('configmaps'), cm('u'));
      await store.update(ctx('configmaps'), 'u', (c) => ({ ...c!, data: { a: '2' } }));
      const dry = ctx('configmaps', 'default', { dryRun: true });
      expect(await failure(store.update(dry, 'u', () => cm('u', { resourceVersion: rvOf(created) })))).toMatchObject({ code: 409, reason: 'Conflict' });
      expect(await failure(store.update(dry, 'none', () => cm('none'), { allowCreate: false }))).toMatchObject({ code: 404 });
    });

    it('a dry-run create on update, delete of a held object and deleteCollection store nothing', async () => {
      await store.create(ctx('configmaps'), cm('held', { finalizers: ['example.com/hold'] }));
      await store.create(ctx('configmaps'), cm('free'));
      const before = await backend.currentRevision();
      writes.length = 0;
      const dry = ctx('configmaps', 'default', { dryRun: true });
      const put = await store.update(dry, 'new', () => cm('new'), { allowCreate: true });
      expect(put.created).toBe(true);
      expect((put.obj.metadata as { uid?: string }).uid).toBeDefined();
      const held = await store.delete(dry, 'held');
      expect(held.removed).toBe(false);
      expect((held.obj.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeDefined();
      expect((await store.deleteCollection(dry, ALL_OBJECTS)).results.map((r) => r.removed)).toEqual([true, false]);
      expect(await backend.currentRevision()).toBe(before);
      expect(await names('configmaps')).toEqual(['free', 'held']);
      expect((await store.find(ctx('configmaps'), 'held'))!.metadata).not.toHaveProperty('deletionTimestamp');
      expect(writes).toEqual([]);
    });
  });

  describe('forceDeleteCorrupt, further', () => {
    it('is a 404 for a missing object, and tells onWrite of the removal of a corrupt one', async () => {
      expect(await failure(store.forceDeleteCorrupt(ctx('configmaps'), 'none', {}, true))).toMatchObject({ code: 404 });
      await backend.create('/registry/configmaps/default/broken', new TextEncoder().encode('[]'));
      // A normal delete cannot read it: kube's corrupt-object 500.
      expect(await failure(store.delete(ctx('configmaps'), 'broken'))).toMatchObject({ code: 500, reason: 'InternalError' });
      await store.forceDeleteCorrupt(ctx('configmaps'), 'broken', {}, true);
      expect(writes).toEqual([['DELETED', 'configmaps/broken']]);
      expect((await backend.get('/registry/configmaps/default/broken')).kv).toBeUndefined();
    });
  });
});
