import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { apps } from '@kapi/api-apps/client';
import { core } from '@kapi/api-core/client';
import {
  ApiError,
  createClient,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  loadKubeconfig,
  type Client,
  type KubeObject,
  type ObjectList,
  type WatchEvent,
} from '@kapi/client';
import { runAsync } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

// Debian's python3-kubernetes lives with the system interpreter, not with any other python3 on PATH.
const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const SCRIPT = join(import.meta.dirname, 'python/typed_client.py');

type Typed = Client<{ core: typeof core; apps: typeof apps }>;

/** Runs typed_client.py (asynchronously: the server is a child process, but keep this process responsive) and parses its JSON. */
async function python(server: ServerProcess, mode: string, ns: string, run: string, extra?: unknown): Promise<any> {
  const args = [SCRIPT, server.kubeconfig, mode, ns, run, ...(extra === undefined ? [] : [JSON.stringify(extra)])];
  const res = await runAsync(PYTHON, args);
  if (res.status !== 0) throw new Error(`typed_client.py ${mode} exited ${res.status}: ${res.stderr}`);
  expect(res.stderr).toBe('');
  return JSON.parse(res.stdout);
}

/** The metadata fields both clients report, as the typed client returned them (absent fields as Python's null). */
function meta(o: KubeObject) {
  const m = o.metadata ?? {};
  return {
    name: m.name ?? null,
    namespace: m.namespace ?? null,
    uid: m.uid ?? null,
    resourceVersion: m.resourceVersion ?? null,
    labels: m.labels ?? null,
    generation: m.generation ?? null,
  };
}

/** Python's metadata view with its creationTimestamp compared as an instant (Python prints `+00:00`, the wire `Z`). */
function expectSameMeta(fromPython: any, typed: KubeObject) {
  const { creationTimestamp, ...rest } = fromPython;
  expect(rest).toEqual(meta(typed));
  expect(typeof typed.metadata?.creationTimestamp).toBe('string');
  expect(Date.parse(creationTimestamp)).toBe(Date.parse(typed.metadata!.creationTimestamp!));
}

const listed = (list: ObjectList<KubeObject>) => ({
  resourceVersion: list.metadata.resourceVersion,
  items: list.items.map((o) => ({ name: o.metadata?.name, uid: o.metadata?.uid, resourceVersion: o.metadata?.resourceVersion })),
});

/** The events of a watch until `last` says stop (bookmarks left out); the watch's timeoutSeconds bounds the wait. */
async function collect<T extends KubeObject>(events: AsyncIterable<WatchEvent<T>>, last: (e: WatchEvent<T>) => boolean) {
  const seen: { type: string; name?: string; uid?: string; resourceVersion?: string }[] = [];
  for await (const e of events) {
    if (e.type === 'BOOKMARK') continue;
    seen.push({ type: e.type, name: e.object.metadata?.name, uid: e.object.metadata?.uid, resourceVersion: e.object.metadata?.resourceVersion });
    if (last(e)) break;
  }
  return seen;
}

describe.skipIf(!hasPythonClient)('@kapi/client against kapi-server over HTTPS, compared with python3-kubernetes', () => {
  let server: ServerProcess;
  let client: Typed;
  beforeAll(async () => {
    server = await startServerProcess();
    // The admin kubeconfig's CA and client certificate: x509 over real TLS, as against any cluster.
    const config = loadKubeconfig({ path: server.kubeconfig });
    expect(config.server).toMatch(/^https:\/\//);
    expect(config.cert && config.key && config.ca).toBeTruthy();
    client = createClient(config, { core, apps });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('objects the typed client writes read the same through the Python client: get, label-selected list, scale', async () => {
    const run = 'typed-to-python';
    const labels = { run, from: 'typed' };
    const ns = 'typed-writes';
    const createdNs = await client.core.v1.namespaces.create({ metadata: { name: ns, labels } });
    expect(createdNs.kind).toBe('Namespace');
    expect(createdNs.apiVersion).toBe('v1');

    const deployments = client.apps.v1.deployments.namespace(ns);
    const createdDeployment = await deployments.create({
      metadata: { name: 'web', labels },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }] },
        },
      },
    });
    expect(createdDeployment.kind).toBe('Deployment');
    expect(createdDeployment.apiVersion).toBe('apps/v1');

    const bytes = [0, 1, 2, 127, 128, 254, 255];
    const configmaps = client.core.v1.configmaps.namespace(ns);
    await configmaps.create({
      metadata: { name: 'settings', labels },
      data: { 'mode.txt': 'fast', empty: '' },
      binaryData: { 'blob.bin': Buffer.from(bytes).toString('base64') },
    });

    const secrets = client.core.v1.secrets.namespace(ns);
    // stringData is write-only: the server stores it base64-encoded under data.
    await secrets.create({ metadata: { name: 'creds', labels }, type: 'Opaque', stringData: { user: 'admin', password: 'pä$$ wörd' } });

    const services = client.core.v1.services.namespace(ns);
    await services.create({
      metadata: { name: 'web', labels },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
    });

    // The typed client's own reads: the view Python's must match.
    const deployment = await deployments.get('web');
    expect(deployment.metadata?.resourceVersion).toBe(createdDeployment.metadata?.resourceVersion);
    const scale = await deployments.scale.get('web');
    const configmap = await configmaps.get('settings');
    const secret = await secrets.get('creds');
    const service = await services.get('web');
    const namespace = await client.core.v1.namespaces.get(ns);
    const selector = { labelSelector: `run=${run}` };
    const lists = {
      deployments: listed(await deployments.list(selector)),
      configmaps: listed(await configmaps.list(selector)),
      secrets: listed(await secrets.list(selector)),
      services: listed(await services.list(selector)),
      namespaces: listed(await client.core.v1.namespaces.list(selector)),
    };

    const py = await python(server, 'read', ns, run, { deployment: 'web', configmap: 'settings', secret: 'creds', service: 'web', namespace: ns });

    // Deployment: metadata, spec and the server's defaults alike.
    expectSameMeta(py.deployment.metadata, deployment);
    expect(py.deployment.metadata.namespace).toBe(ns);
    expect(py.deployment.metadata.labels).toEqual(labels);
    expect(py.deployment).toMatchObject({
      replicas: deployment.spec?.replicas,
      matchLabels: deployment.spec?.selector.matchLabels,
      strategy: deployment.spec?.strategy?.type,
      container: {
        name: deployment.spec?.template.spec?.containers[0]?.name,
        image: deployment.spec?.template.spec?.containers[0]?.image,
        ports: deployment.spec?.template.spec?.containers[0]?.ports?.map((p) => p.containerPort),
      },
    });
    expect(py.deployment).toMatchObject({ replicas: 3, matchLabels: { app: 'web' }, strategy: 'RollingUpdate', container: { image: 'nginx:1.27', ports: [8080] } });

    // The scale subresource: the Deployment's identity, autoscaling/v1 Scale, the replicas asked for.
    expect(scale.kind).toBe('Scale');
    expect(scale.apiVersion).toBe('autoscaling/v1');
    expect(py.scale).toMatchObject({
      apiVersion: scale.apiVersion,
      kind: scale.kind,
      specReplicas: scale.spec?.replicas,
      statusReplicas: scale.status?.replicas ?? null,
      selector: scale.status?.selector ?? null,
    });
    expect(py.scale.specReplicas).toBe(3);
    expect(py.scale.metadata).toMatchObject({
      name: scale.metadata?.name,
      namespace: scale.metadata?.namespace,
      uid: scale.metadata?.uid,
      resourceVersion: scale.metadata?.resourceVersion,
    });
    expect(scale.metadata?.uid).toBe(deployment.metadata?.uid);
    expect(scale.metadata?.resourceVersion).toBe(deployment.metadata?.resourceVersion);

    // ConfigMap: text data, and binaryData base64 on the wire carrying the same bytes.
    expectSameMeta(py.configmap.metadata, configmap);
    expect(py.configmap.data).toEqual(configmap.data);
    expect(py.configmap.data).toEqual({ 'mode.txt': 'fast', empty: '' });
    expect(py.configmap.binaryData).toEqual(configmap.binaryData);
    expect(py.configmap.bytes).toEqual({ 'blob.bin': bytes });
    expect([...Buffer.from(configmap.binaryData!['blob.bin']!, 'base64')]).toEqual(bytes);

    // Secret: stringData became data; both clients see the same base64, decoding to what was written.
    expectSameMeta(py.secret.metadata, secret);
    expect(py.secret.type).toBe(secret.type);
    expect(py.secret.data).toEqual(secret.data);
    expect(py.secret.decoded).toEqual({ user: 'admin', password: 'pä$$ wörd' });
    expect((secret as { stringData?: unknown }).stringData).toBeUndefined();

    // Service: type, cluster IP (as allocated, or not), ports with an integer targetPort.
    expectSameMeta(py.service.metadata, service);
    expect(py.service).toMatchObject({
      type: service.spec?.type ?? null,
      clusterIP: service.spec?.clusterIP ?? null,
      selector: service.spec?.selector,
      ports: service.spec?.ports?.map((p) => ({ name: p.name ?? null, port: p.port, targetPort: p.targetPort ?? null, protocol: p.protocol ?? null })),
    });
    expect(py.service.ports).toEqual([{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]);

    // Namespace: cluster-scoped, so no namespace of its own.
    expectSameMeta(py.namespace.metadata, namespace);
    expect(py.namespace.metadata.namespace).toBeNull();
    expect(py.namespace.phase).toBe(namespace.status?.phase ?? null);

    // Lists by label selector: the same members (names, uids, versions); the list's resourceVersion a non-empty string.
    const expected = { deployments: ['web'], configmaps: ['settings'], secrets: ['creds'], services: ['web'], namespaces: [ns] };
    for (const [resource, names] of Object.entries(expected)) {
      const typed = lists[resource as keyof typeof lists];
      const fromPython = py.lists[resource];
      expect(typed.items.map((i) => i.name), resource).toEqual(names);
      expect(fromPython.items, resource).toEqual(typed.items);
      expect(typeof fromPython.resourceVersion, resource).toBe('string');
      expect(fromPython.resourceVersion.length, resource).toBeGreaterThan(0);
      expect(typeof typed.resourceVersion, resource).toBe('string');
      expect(typed.resourceVersion!.length, resource).toBeGreaterThan(0);
    }
  });

  it('objects the Python client writes are read by the typed client: get, list, items(), and a watch from before the writes', async () => {
    const run = 'python-to-typed';
    const ns = 'python-writes';
    await client.core.v1.namespaces.create({ metadata: { name: ns } });
    const configmaps = client.core.v1.configmaps.namespace(ns);
    const deployments = client.apps.v1.deployments.namespace(ns);
    // The versions to watch from, taken before Python writes anything.
    const cmVersion = (await configmaps.list()).metadata.resourceVersion;
    const deploymentVersion = (await deployments.list()).metadata.resourceVersion;
    expect(cmVersion).toBeTruthy();
    expect(deploymentVersion).toBeTruthy();

    const py = await python(server, 'write', ns, run);
    expect(py.scaleReplicas).toBe(3);
    expect(py.afterDelete).toMatchObject({ status: 404, body: { reason: 'NotFound' } });

    // get: the same objects, as Python last saw them.
    for (const name of ['py-a', 'py-b']) {
      const got = await configmaps.get(name);
      expectSameMeta(py.configmaps[name].metadata, got);
      expect(got.data).toEqual(py.configmaps[name].data);
      expect(got.binaryData).toEqual(py.configmaps[name].binaryData);
      expect([...Buffer.from(got.binaryData!.raw!, 'base64')]).toEqual([0, 128, 255, name.charCodeAt(name.length - 1)]);
    }
    expect((await configmaps.get('py-a')).data).toEqual({ k: 'patched' });
    expect((await configmaps.get('py-a')).metadata?.labels).toEqual({ run, from: 'python', patched: 'yes' });
    const gone = await configmaps.get('py-c').catch((e: unknown) => e);
    expect(isNotFound(gone)).toBe(true);

    const deployment = await deployments.get('py-web');
    expectSameMeta(py.deployment.metadata, deployment);
    expect(deployment.spec?.replicas).toBe(3);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe(py.deployment.image);
    expect((await deployments.scale.get('py-web')).spec?.replicas).toBe(py.deployment.replicas);

    // list and items(): the label-selected members, py-c gone; items() a page at a time gives the same.
    const selector = `run=${run}`;
    const list = await configmaps.list({ labelSelector: selector });
    expect(list.items.map((o) => o.metadata?.name)).toEqual(['py-a', 'py-b']);
    expect(list.items.map((o) => o.metadata?.resourceVersion)).toEqual(['py-a', 'py-b'].map((n) => py.configmaps[n].metadata.resourceVersion));
    expect(typeof list.metadata.resourceVersion).toBe('string');
    expect(list.metadata.resourceVersion!.length).toBeGreaterThan(0);
    const items: string[] = [];
    for await (const cm of configmaps.items({ labelSelector: selector, limit: 1 })) items.push(cm.metadata!.name!);
    expect(items).toEqual(['py-a', 'py-b']);
    const pages: string[][] = [];
    for await (const page of configmaps.pages({ labelSelector: selector, limit: 1 })) pages.push(page.items.map((o) => o.metadata!.name!));
    expect(pages).toEqual([['py-a'], ['py-b']]);
    const all: string[] = [];
    for await (const d of client.apps.v1.deployments.items({ labelSelector: 'from=python' })) all.push(`${d.metadata?.namespace}/${d.metadata?.name}`);
    expect(all).toEqual([`${ns}/py-web`]);

    // Watches from before Python's writes replay them in order, with the versions and uids Python got back.
    const cmEvents = await collect(
      configmaps.watch({ resourceVersion: cmVersion, labelSelector: selector, timeoutSeconds: 20 }),
      (e) => e.type === 'DELETED' && e.object.metadata?.name === 'py-c',
    );
    expect(cmEvents.map(({ type, name, uid }) => ({ type, name, uid }))).toEqual(
      py.configmapEvents.map(({ type, name, uid }: any) => ({ type, name, uid })),
    );
    expect(cmEvents.map((e) => e.type + ' ' + e.name)).toEqual(['ADDED py-a', 'ADDED py-b', 'ADDED py-c', 'MODIFIED py-a', 'DELETED py-c']);
    // Every write Python made is the version its event carries (the delete's version is new: not compared).
    expect(cmEvents.slice(0, 4).map((e) => e.resourceVersion)).toEqual(py.configmapEvents.slice(0, 4).map((e: any) => e.resourceVersion));

    const deploymentEvents = await collect(
      deployments.watch({ resourceVersion: deploymentVersion, labelSelector: selector, timeoutSeconds: 20 }),
      (e) => e.type === 'MODIFIED' && e.object.metadata?.resourceVersion === py.deploymentEvents[1].resourceVersion,
    );
    expect(deploymentEvents).toEqual(py.deploymentEvents);
  });

  it('refusals arrive as typed ApiErrors carrying the same Status the Python client gets', async () => {
    const ns = 'typed-errors';
    await client.core.v1.namespaces.create({ metadata: { name: ns } });
    const configmaps = client.core.v1.configmaps.namespace(ns);
    const existing = await configmaps.create({ metadata: { name: 'taken' }, data: { a: '1' } });

    // 404: get of a missing object.
    const notFound = await configmaps.get('missing').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiError);
    expect(isNotFound(notFound)).toBe(true);
    const nf = notFound as ApiError;
    expect(nf.code).toBe(404);
    expect(nf.reason).toBe('NotFound');
    expect(nf.status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', details: { name: 'missing', kind: 'configmaps' } });
    expect(nf.message).toBe(nf.status.message);
    expect(nf.message).toContain('"missing" not found');

    // 409 AlreadyExists: create of a taken name; the object is untouched.
    const exists = await configmaps.create({ metadata: { name: 'taken' }, data: { a: '2' } }).catch((e: unknown) => e);
    expect(exists).toBeInstanceOf(ApiError);
    expect(isAlreadyExists(exists)).toBe(true);
    expect(isConflict(exists)).toBe(false);
    const ae = exists as ApiError;
    expect(ae.code).toBe(409);
    expect(ae.reason).toBe('AlreadyExists');
    expect(ae.status).toMatchObject({ kind: 'Status', status: 'Failure', code: 409, reason: 'AlreadyExists', details: { name: 'taken', kind: 'configmaps' } });
    expect((await configmaps.get('taken')).metadata?.resourceVersion).toBe(existing.metadata?.resourceVersion);

    // 409 Conflict: an update from a stale copy.
    await configmaps.patch('taken', { data: { a: '3' } });
    const stale = await configmaps.update({ ...existing, data: { a: '4' } }).catch((e: unknown) => e);
    expect(isConflict(stale)).toBe(true);
    expect((stale as ApiError).code).toBe(409);
    expect((stale as ApiError).status.reason).toBe('Conflict');

    // 422 Invalid: a Deployment whose name is no DNS-1123 subdomain; the causes name the field.
    const invalidDeployment = {
      metadata: { name: 'Bad_Name' },
      spec: {
        selector: { matchLabels: { app: 'bad' } },
        template: { metadata: { labels: { app: 'bad' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    const invalid = await client.apps.v1.deployments.namespace(ns).create(invalidDeployment).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(isInvalid(invalid)).toBe(true);
    const iv = invalid as ApiError;
    expect(iv.code).toBe(422);
    expect(iv.reason).toBe('Invalid');
    expect(iv.status).toMatchObject({ kind: 'Status', status: 'Failure', code: 422, reason: 'Invalid', details: { name: 'Bad_Name', group: 'apps', kind: 'Deployment' } });
    expect(iv.status.details?.causes?.map((c) => c.field)).toContain('metadata.name');
    // Nothing was created.
    expect((await client.apps.v1.deployments.namespace(ns).list()).items).toEqual([]);

    // The Python client, making the same requests, gets the same Status bodies.
    const py = await python(server, 'errors', ns, 'errors', {
      missing: 'missing',
      existing: 'taken',
      invalid: { apiVersion: 'apps/v1', kind: 'Deployment', ...invalidDeployment },
    });
    expect(py.notFound).toEqual({ status: nf.code, body: nf.status });
    expect(py.alreadyExists).toEqual({ status: ae.code, body: ae.status });
    expect(py.invalid).toEqual({ status: iv.code, body: iv.status });
  });
});
