import { apps } from '@kapi/api-apps/client';
import { core } from '@kapi/api-core/client';
import { plugin as appsPlugin } from '@kapi/api-apps';
import { startTestServer, type TestServer } from '@kapi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, isAlreadyExists, isConflict, isInvalid, isNotFound, loadKubeconfig, type Client, type Status } from '../src/index.js';

const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1' as const,
  kind: 'Deployment' as const,
  metadata: { name, labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

let server: TestServer;
let client: Client<{ core: typeof core; apps: typeof apps }>;
let ns: string;

beforeAll(async () => {
  server = await startTestServer({ plugins: [appsPlugin] });
  // Over HTTPS with the kubeconfig's CA and client certificate, as against any cluster.
  client = createClient(loadKubeconfig({ path: server.kubeconfig }), { core, apps });
  ns = await server.createNamespace('client');
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('typed client', () => {
  it('creates, gets, updates and deletes a Deployment, typed by @kapi/api-apps', async () => {
    const deployments = client.apps.v1.deployments.namespace(ns);
    const created = await deployments.create(deployment('web'));
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.spec?.replicas).toBe(1);
    // Defaults applied by the server come back typed.
    expect(created.spec?.strategy?.type).toBe('RollingUpdate');

    const got = await deployments.get('web');
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    got.spec!.replicas = 3;
    const updated = await deployments.update(got);
    expect(updated.spec?.replicas).toBe(3);
    expect(updated.metadata?.generation).toBe(2);

    // The stale copy is refused: optimistic concurrency surfaces as a typed 409 Conflict.
    const stale = await deployments.update({ ...created, spec: { ...created.spec!, replicas: 5 } }).catch((e) => e);
    expect(isConflict(stale)).toBe(true);
    expect((stale as ApiError).status.kind).toBe('Status');

    const deleted = (await deployments.delete('web', { propagationPolicy: 'Background' })) as Status;
    expect(deleted.kind === 'Status' || (deleted as { metadata?: { name?: string } }).metadata?.name === 'web').toBe(true);
    const gone = await deployments.get('web').catch((e) => e);
    expect(isNotFound(gone)).toBe(true);
    expect((gone as ApiError).reason).toBe('NotFound');
  });

  it('answers bad input with a typed error carrying the Status causes', async () => {
    const cms = client.core.v1.configmaps.namespace(ns);
    const invalid = await cms.create({ metadata: { name: 'Bad_Name' }, data: { a: 'b' } }).catch((e) => e);
    expect(isInvalid(invalid)).toBe(true);
    expect((invalid as ApiError).code).toBe(422);
    expect((invalid as ApiError).status.details?.causes?.[0]?.field).toBe('metadata.name');

    await cms.create({ metadata: { name: 'dup' } });
    const dup = await cms.create({ metadata: { name: 'dup' } }).catch((e) => e);
    expect(isAlreadyExists(dup)).toBe(true);
  });

  it('takes the namespace from the object when the client has none, and refuses a namespaced read without one', async () => {
    const created = await client.core.v1.configmaps.create({ metadata: { name: 'from-object', namespace: ns }, data: { x: '1' } });
    expect(created.metadata?.namespace).toBe(ns);
    await expect(client.core.v1.configmaps.get('from-object')).rejects.toThrow(/namespaced/);
    await expect(client.core.v1.configmaps.namespace(ns).get('')).rejects.toThrow(/must not be empty/);
    expect(() => client.core.v1.namespaces.namespace('x')).toThrow(/cluster-scoped/);
    expect((await client.core.v1.namespaces.get(ns)).metadata?.name).toBe(ns);
  });

  it('patches with merge, JSON and strategic merge patches', async () => {
    const deployments = client.apps.v1.deployments.namespace(ns);
    await deployments.create(deployment('patched'));
    const merged = await deployments.patch('patched', { metadata: { labels: { tier: 'front' } } });
    expect(merged.metadata?.labels).toEqual({ app: 'patched', tier: 'front' });
    const json = await deployments.patch('patched', [{ op: 'replace', path: '/spec/replicas', value: 4 }], { type: 'json' });
    expect(json.spec?.replicas).toBe(4);
    // Strategic: the containers list merges by name instead of being replaced.
    const strategic = await deployments.patch(
      'patched',
      { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } },
      { type: 'strategic' },
    );
    expect(strategic.spec?.template.spec?.containers.map((c) => c.name).sort()).toEqual(['sidecar', 'web']);
  });

  it('applies server-side with a field manager, and reports a conflict unless forced', async () => {
    const cms = client.core.v1.configmaps.namespace(ns);
    const applied = await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { owner: 'a' } }, { fieldManager: 'tool-a' });
    expect(applied.data).toEqual({ owner: 'a' });
    expect(applied.metadata?.managedFields?.[0]?.manager).toBe('tool-a');
    const conflict = await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { owner: 'b' } }, { fieldManager: 'tool-b' }).catch((e) => e);
    expect(isConflict(conflict)).toBe(true);
    const forced = await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { owner: 'b' } }, { fieldManager: 'tool-b', force: true });
    expect(forced.data).toEqual({ owner: 'b' });

    // An apply configuration is any part of the object: here only the replicas of an existing Deployment, which its
    // creator (manager kapi-client, from the User-Agent) owns: taken over with force.
    const deployments = client.apps.v1.deployments.namespace(ns);
    await deployments.create(deployment('partly'));
    const conflicting = await deployments.apply({ metadata: { name: 'partly' }, spec: { replicas: 7 } }, { fieldManager: 'autoscaler' }).catch((e) => e);
    expect(conflicting.message).toMatch(/conflict with "kapi-client"/);
    const scaled = await deployments.apply({ metadata: { name: 'partly' }, spec: { replicas: 7 } }, { fieldManager: 'autoscaler', force: true });
    expect(scaled.spec?.replicas).toBe(7);
    expect(scaled.spec?.template.spec?.containers[0].image).toBe('nginx:1.27');
  });

  it('reads and writes the status and scale subresources', async () => {
    const deployments = client.apps.v1.deployments.namespace(ns);
    await deployments.create(deployment('scaled', 2));
    const scale = await deployments.scale.get('scaled');
    expect(scale.kind).toBe('Scale');
    expect(scale.spec?.replicas).toBe(2);
    const rescaled = await deployments.scale.update('scaled', { ...scale, spec: { replicas: 6 } });
    expect(rescaled.spec?.replicas).toBe(6);
    expect((await deployments.get('scaled')).spec?.replicas).toBe(6);

    const status = await deployments.status.patch('scaled', { status: { observedGeneration: 1, replicas: 6 } });
    expect(status.status?.replicas).toBe(6);
    // The status subresource ignores changes to the spec.
    const ignored = await deployments.status.patch('scaled', { spec: { replicas: 1 }, status: { replicas: 5 } });
    expect(ignored.spec?.replicas).toBe(6);
    expect(ignored.status?.replicas).toBe(5);
  });

  it('lists in pages and iterates over every object', async () => {
    const cms = client.core.v1.configmaps.namespace(ns);
    for (let i = 0; i < 7; i++) await cms.create({ metadata: { name: `page-${i}`, labels: { paged: 'yes' } } });
    const pages = [];
    for await (const page of cms.pages({ labelSelector: 'paged=yes', limit: 3 })) pages.push(page.items.map((c) => c.metadata?.name));
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const names: string[] = [];
    for await (const cm of cms.items({ labelSelector: 'paged=yes', limit: 2 })) names.push(cm.metadata!.name!);
    expect(names.sort()).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4', 'page-5', 'page-6']);
    const all = await client.core.v1.configmaps.list({ labelSelector: 'paged=yes' });
    expect(all.items).toHaveLength(7);
    expect(all.metadata.resourceVersion).toMatch(/^\d+$/);
    // From a resourceVersion: the first page is read at it, the rest follow the continue token.
    const at: string[] = [];
    for await (const cm of cms.items({ labelSelector: 'paged=yes', limit: 3, resourceVersion: all.metadata.resourceVersion, resourceVersionMatch: 'NotOlderThan' })) {
      at.push(cm.metadata!.name!);
    }
    expect(at).toHaveLength(7);
  });

  it('asks for a Table, as kubectl get prints it', async () => {
    const deployments = client.apps.v1.deployments.namespace(ns);
    await deployments.create(deployment('tabled'));
    const table = await deployments.table({ fieldSelector: 'metadata.name=tabled' });
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(expect.arrayContaining(['Name', 'Ready', 'Up-to-date', 'Available', 'Age']));
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0].cells[0]).toBe('tabled');
  });

  it('watches as an async iterator of typed events, and resumes from a resourceVersion', async () => {
    const cms = client.core.v1.configmaps.namespace(ns);
    const start = (await cms.list()).metadata.resourceVersion;
    await cms.create({ metadata: { name: 'w1' }, data: { v: '1' } });
    await cms.patch('w1', { data: { v: '2' } });
    await cms.delete('w1');
    const seen: string[] = [];
    let lastRv = '';
    for await (const event of cms.watch({ resourceVersion: start })) {
      if (event.type === 'BOOKMARK') continue;
      seen.push(`${event.type} ${event.object.metadata?.name} ${event.object.data?.v}`);
      lastRv = event.object.metadata!.resourceVersion!;
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['ADDED w1 1', 'MODIFIED w1 2', 'DELETED w1 2']);

    // Resuming from the last event seen gives only what happened after it.
    await cms.create({ metadata: { name: 'w2' } });
    for await (const event of cms.watch({ resourceVersion: lastRv })) {
      expect(event.type).toBe('ADDED');
      expect(event.object.metadata?.name).toBe('w2');
      break;
    }
  });

  it('watches on across the server ending the watch, from the last resourceVersion, with reconnect', async () => {
    const cms = client.core.v1.configmaps.namespace(ns);
    const start = (await cms.list()).metadata.resourceVersion;
    const seen: string[] = [];
    let writes = 0;
    await cms.create({ metadata: { name: 'r-0' } });
    // The server ends every watch after a second; the iteration goes on through three of them.
    for await (const event of cms.watch({ resourceVersion: start, timeoutSeconds: 1, reconnect: true })) {
      if (event.type !== 'ADDED' || !event.object.metadata?.name?.startsWith('r-')) continue;
      seen.push(event.object.metadata.name);
      if (seen.length === 3) break;
      // The next object is made after this watch has ended.
      setTimeout(() => void cms.create({ metadata: { name: `r-${++writes}` } }), 1_300);
    }
    expect(seen).toEqual(['r-0', 'r-1', 'r-2']);
  }, 20_000);

  it('sends the current objects first when asked (sendInitialEvents), ending them with a bookmark', async () => {
    // In-process, no socket: the client sends through the test server's fetch.
    const own = await startTestServer({ listen: false, apiServer: { featureGates: { WatchList: true } } });
    try {
      const inProcess = createClient({ server: 'http://kapi.test', fetch: own.fetch }, { core });
      const name = await own.createNamespace('initial');
      const cms = inProcess.core.v1.configmaps.namespace(name);
      await cms.create({ metadata: { name: 'a' } });
      await cms.create({ metadata: { name: 'b' } });
      const events: string[] = [];
      for await (const event of cms.watch({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' })) {
        if (event.type === 'BOOKMARK') {
          expect(event.object.metadata?.annotations?.['k8s.io/initial-events-end']).toBe('true');
          break;
        }
        events.push(`${event.type} ${event.object.metadata?.name}`);
      }
      // kube-root-ca.crt is published into every namespace.
      expect(events.filter((e) => !e.includes('kube-root-ca.crt')).sort()).toEqual(['ADDED a', 'ADDED b']);
    } finally {
      await own.stop();
    }
  });

  it('reaches resources no group package is given for through the dynamic client', async () => {
    const leases = client.resource<{ metadata?: { name?: string }; spec?: { holderIdentity?: string } }>({
      group: 'coordination.k8s.io',
      version: 'v1',
      kind: 'Lease',
      plural: 'leases',
      namespaced: true,
    });
    // The test server serves only core and apps: the resource is not there.
    const missing = await leases.namespace(ns).list().catch((e) => e);
    expect(isNotFound(missing)).toBe(true);
    const secrets = client.resource({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }).namespace(ns);
    await secrets.create({ metadata: { name: 's' }, stringData: { k: 'v' } } as object);
    expect(((await secrets.get('s')) as { data?: Record<string, string> }).data).toEqual({ k: Buffer.from('v').toString('base64') });
  });

  it('is refused without credentials, as a typed 401', async () => {
    const config = loadKubeconfig({ path: server.kubeconfig });
    const anonymous = createClient({ server: config.server, ca: config.ca }, { core });
    const error = await anonymous.core.v1.namespaces.list().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(401);
    await anonymous.close();
  });
});
