// kube's garbage collector in process: Background, Foreground and Orphan deletion through ownerReferences, owners that
// never existed, a restart in the middle, and two servers on one storage of which only the Lease holder collects.
import { plugin as apps } from '@kapi/api-apps';
import { plugin as coordination } from '@kapi/api-coordination';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { garbageCollector, type GarbageCollectorOptions } from '../src/index.js';

const servers: ApiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** One memory backend several servers share, in turn or at once: stopping one does not close it. */
const sharedStorage = (): StorageBackend => ({ ...createMemoryBackend(), close: async () => {} });

async function start(storage: StorageBackend = createMemoryBackend(), gc: GarbageCollectorOptions | null = { leaderElection: false }) {
  // The deletes this server's garbage collector made (run as the server's own system user).
  const collected: string[] = [];
  const server = createApiServer({
    storage,
    plugins: [createCorePlugin(), apps, coordination],
    admission: [{
      name: 'RecordCollections',
      operations: ['DELETE'],
      async validate(attrs) {
        if (attrs.user.username.startsWith('system:')) collected.push(attrs.name);
      },
    }],
    controllers: gc ? [garbageCollector({ ...gc, resyncResourcesMs: 200 })] : [],
  });
  await server.start();
  servers.push(server);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { server, call, collected };
}

type Call = Awaited<ReturnType<typeof start>>['call'];
const CM = '/api/v1/namespaces/default/configmaps';
const RS = '/apis/apps/v1/namespaces/default/replicasets';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

const ref = (obj: { apiVersion: string; kind: string; metadata: { name: string; uid: string } }, block = false) => ({
  apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, uid: obj.metadata.uid, ...(block ? { blockOwnerDeletion: true, controller: true } : {}),
});
const configMap = async (call: Call, name: string, owners: object[] = []) =>
  (await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}) } })).body;
const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};
const gone = (call: Call, path: string) => async () => (await call('GET', path)).status === 404;

const podTemplate = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

describe('garbage collector', () => {
  it('Background: the owner goes at once, its dependents after; an owner with a solid co-owner only loses the reference', async () => {
    const { call } = await start();
    const owner = await configMap(call, 'owner');
    const other = await configMap(call, 'other');
    await configMap(call, 'dep', [ref(owner)]);
    await configMap(call, 'shared', [ref(owner), ref(other)]);
    const del = await call('DELETE', `${CM}/owner`);
    expect(del.status).toBe(200);
    expect((await call('GET', `${CM}/owner`)).status).toBe(404);
    await until(gone(call, `${CM}/dep`), 'dep to be collected');
    await until(async () => (await call('GET', `${CM}/shared`)).body.metadata.ownerReferences?.length === 1, 'shared to lose its reference');
    expect((await call('GET', `${CM}/shared`)).body.metadata.ownerReferences).toEqual([ref(other)]);
  });

  it('Foreground: dependents with blockOwnerDeletion go first, through a chain, then the owner', async () => {
    const { call } = await start();
    const deploy = (await call('POST', DEPLOY, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate('web') } })).body;
    const rs = (await call('POST', RS, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', ownerReferences: [ref(deploy, true)] }, spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate('web') } })).body;
    const pod = (await call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1-a', ownerReferences: [ref(rs, true)], finalizers: ['example.com/hold'] }, spec: podTemplate('web').spec })).body;
    expect(pod.metadata.uid).toBeTruthy();
    const del = await call('DELETE', `${DEPLOY}/web`, { propagationPolicy: 'Foreground' });
    expect(del.status).toBe(200);
    // Held while a blocking dependent remains: the pod's own finalizer keeps it (and so the chain above it).
    await until(async () => (await call('GET', '/api/v1/namespaces/default/pods/web-1-a')).body.metadata.deletionTimestamp !== undefined, 'the pod to be deleted');
    const held = (await call('GET', `${DEPLOY}/web`)).body;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(held.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect((await call('GET', `${RS}/web-1`)).body.metadata.finalizers).toEqual(['foregroundDeletion']);
    // The pod's finalizer goes: the pod, the replica set, then the deployment.
    const current = (await call('GET', '/api/v1/namespaces/default/pods/web-1-a')).body;
    expect((await call('PUT', '/api/v1/namespaces/default/pods/web-1-a', { ...current, metadata: { ...current.metadata, finalizers: [] } })).status).toBe(200);
    await until(gone(call, `${RS}/web-1`), 'the replica set to go');
    await until(gone(call, `${DEPLOY}/web`), 'the deployment to go');
  });

  it('Orphan: dependents lose the reference and stay; orphanDependents=true does the same', async () => {
    const { call } = await start();
    for (const [name, options] of [['o1', { propagationPolicy: 'Orphan' }], ['o2', { orphanDependents: true }]] as const) {
      const owner = await configMap(call, name);
      await configMap(call, `${name}-dep`, [ref(owner)]);
      expect((await call('DELETE', `${CM}/${name}`, options)).status).toBe(200);
      await until(gone(call, `${CM}/${name}`), `${name} to go`);
      const dep = (await call('GET', `${CM}/${name}-dep`)).body;
      expect(dep.metadata.ownerReferences).toBeUndefined();
    }
  });

  it('collects dependents of owners that never existed or were replaced, and keeps those of unserved kinds', async () => {
    const { call } = await start();
    await configMap(call, 'ghost', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '0c1b7e2e-0000-4000-8000-000000000001' }]);
    await until(gone(call, `${CM}/ghost`), 'ghost to be collected');
    const real = await configMap(call, 'real');
    await configMap(call, 'stale', [{ ...ref(real), uid: '0c1b7e2e-0000-4000-8000-000000000002' }]);
    await until(gone(call, `${CM}/stale`), 'a reference by the wrong uid to be collected');
    await configMap(call, 'foreign', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '0c1b7e2e-0000-4000-8000-000000000003' }]);
    // A cluster-scoped object cannot have a namespaced owner: the reference is invalid, and the object kept.
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'owned-ns', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '0c1b7e2e-0000-4000-8000-000000000004' }] } });
    await new Promise((r) => setTimeout(r, 600));
    expect((await call('GET', `${CM}/foreign`)).status).toBe(200);
    expect((await call('GET', '/api/v1/namespaces/owned-ns')).status).toBe(200);
  });

  it('finds an owner by kind, name and namespace, not by uid alone; leaves invalid references alone', async () => {
    const { call } = await start();
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const victim = (await call('POST', '/api/v1/namespaces/other/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'victim' } })).body;
    // The uid of an object in another namespace, or of another kind: no owner of that name here, so collected.
    await configMap(call, 'cross-ns', [ref(victim, true)]);
    await configMap(call, 'wrong-kind', [{ ...ref(victim), kind: 'Secret' }]);
    await until(gone(call, `${CM}/cross-ns`), 'cross-ns to be collected');
    await until(gone(call, `${CM}/wrong-kind`), 'wrong-kind to be collected');
    // A foreground delete of the other namespace's object is not held by them, and does not reach cluster-scoped
    // objects that name a namespaced owner (an invalid reference).
    const owner = await configMap(call, 'owner');
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kept', ownerReferences: [ref(owner, true)] } });
    expect((await call('DELETE', `${CM}/owner`, { propagationPolicy: 'Foreground' })).status).toBe(200);
    await until(gone(call, `${CM}/owner`), 'the owner to go');
    expect((await call('DELETE', '/api/v1/namespaces/other/configmaps/victim', { propagationPolicy: 'Foreground' })).status).toBe(200);
    await until(gone(call, '/api/v1/namespaces/other/configmaps/victim'), 'the victim to go');
    await new Promise((r) => setTimeout(r, 300));
    expect((await call('GET', '/api/v1/namespaces/kept')).body.status.phase).toBe('Active');
  });

  it('Foreground through a cycle, and an owner released when its blocking dependent drops the reference', async () => {
    const { call } = await start();
    const a = await configMap(call, 'ca');
    const b = await configMap(call, 'cb', [ref(a, true)]);
    const aNow = (await call('GET', `${CM}/ca`)).body;
    expect((await call('PUT', `${CM}/ca`, { ...aNow, metadata: { ...aNow.metadata, ownerReferences: [ref(b, true)] } })).status).toBe(200);
    expect((await call('DELETE', `${CM}/ca`, { propagationPolicy: 'Foreground' })).status).toBe(200);
    await until(gone(call, `${CM}/ca`), 'ca to go');
    await until(gone(call, `${CM}/cb`), 'cb to go');

    const o = await configMap(call, 'o');
    await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', finalizers: ['example.com/hold'], ownerReferences: [ref(o, true)] } });
    expect((await call('DELETE', `${CM}/o`, { propagationPolicy: 'Foreground' })).status).toBe(200);
    await until(async () => (await call('GET', `${CM}/d`)).body.metadata.deletionTimestamp !== undefined, 'd to be deleted');
    const d = (await call('GET', `${CM}/d`)).body;
    expect((await call('PUT', `${CM}/d`, { ...d, metadata: { ...d.metadata, ownerReferences: undefined } })).status).toBe(200);
    await until(gone(call, `${CM}/o`), 'o to go once d no longer blocks it');
  });

  it('refuses new finalizers on what is being deleted, and ignores Events', async () => {
    const { call } = await start();
    await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    expect((await call('DELETE', `${CM}/held`)).status).toBe(200);
    const held = (await call('GET', `${CM}/held`)).body;
    const add = await call('PUT', `${CM}/held`, { ...held, metadata: { ...held.metadata, finalizers: ['example.com/hold', 'foregroundDeletion'] } });
    expect(add.status).toBe(422);
    expect(add.body.message).toBe('ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"foregroundDeletion"}');
    const event = await call('POST', '/api/v1/namespaces/default/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '0c1b7e2e-0000-4000-8000-000000000009' }] },
      involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default' }, reason: 'R', message: 'm', type: 'Normal',
    });
    expect(event.status).toBe(201);
    await new Promise((r) => setTimeout(r, 400));
    expect((await call('GET', '/api/v1/namespaces/default/events/e1')).status).toBe(200);
  });

  it('survives a restart: what was left to do is done by the next server', async () => {
    const storage = sharedStorage();
    const first = await start(storage, null);
    const owner = await configMap(first.call, 'owner');
    await configMap(first.call, 'dep', [ref(owner)]);
    // No collector on the first server: the owner goes, the dependent stays.
    expect((await first.call('DELETE', `${CM}/owner`)).status).toBe(200);
    await first.server.stop();
    servers.splice(servers.indexOf(first.server), 1);
    const second = await start(storage);
    await until(gone(second.call, `${CM}/dep`), 'dep to be collected after the restart');
  });

  it('a Lease someone else wrote to last for ever expires when it stops changing, by the collector\'s own clock', async () => {
    const storage = sharedStorage();
    const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kapi-garbage-collector';
    const c = await start(storage, { leaderElection: { retryPeriodMs: 100, leaseDurationSeconds: 1 } });
    await until(async () => !!(await c.call('GET', LEASE)).body?.spec?.holderIdentity, 'a leader');
    const lease = (await c.call('GET', LEASE)).body;
    const hijacked = await c.call('PUT', LEASE, { ...lease, spec: { ...lease.spec, holderIdentity: 'evil', renewTime: '2099-01-01T00:00:00.000000Z', leaseDurationSeconds: 1 } });
    expect(hijacked.status).toBe(200);
    await until(async () => (await c.call('GET', LEASE)).body.spec.holderIdentity !== 'evil', 'the lease taken back');
    const owner = await configMap(c.call, 'owner');
    await configMap(c.call, 'dep', [ref(owner)]);
    expect((await c.call('DELETE', `${CM}/owner`)).status).toBe(200);
    await until(gone(c.call, `${CM}/dep`), 'dep to be collected');
  });

  it('two servers on one storage: only the Lease holder collects; another takes over when it stops', async () => {
    const storage = sharedStorage();
    const election = { leaderElection: { retryPeriodMs: 100, leaseDurationSeconds: 2 } };
    const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kapi-garbage-collector';
    const a = await start(storage, election);
    const b = await start(storage, election);
    await until(async () => !!(await a.call('GET', LEASE)).body?.spec?.holderIdentity, 'a leader');
    const holder = (await a.call('GET', LEASE)).body.spec.holderIdentity as string;
    for (let i = 0; i < 5; i++) {
      const owner = await configMap(a.call, `owner-${i}`);
      await configMap(b.call, `dep-${i}`, [ref(owner)]);
      expect((await b.call('DELETE', `${CM}/owner-${i}`)).status).toBe(200);
    }
    for (let i = 0; i < 5; i++) await until(gone(a.call, `${CM}/dep-${i}`), `dep-${i} to be collected`);
    // Every collection came from one of the two servers.
    const byA = a.collected.filter((n) => n.startsWith('dep-'));
    const byB = b.collected.filter((n) => n.startsWith('dep-'));
    expect(byA.length + byB.length).toBe(5);
    expect(byA.length === 0 || byB.length === 0).toBe(true);
    expect((await a.call('GET', LEASE)).body.spec.holderIdentity).toBe(holder);
    // The leader stops and gives the lease up: the other one collects from then on.
    const [leader, follower] = byA.length ? [a, b] : [b, a];
    await leader.server.stop();
    servers.splice(servers.indexOf(leader.server), 1);
    await until(async () => {
      const spec = (await follower.call('GET', LEASE)).body.spec;
      return !!spec.holderIdentity && spec.holderIdentity !== holder;
    }, 'a new leader');
    const owner = await configMap(follower.call, 'owner-late');
    await configMap(follower.call, 'dep-late', [ref(owner)]);
    expect((await follower.call('DELETE', `${CM}/owner-late`)).status).toBe(200);
    await until(gone(follower.call, `${CM}/dep-late`), 'dep-late to be collected by the new leader');
    expect(follower.collected).toContain('dep-late');
  });
});
