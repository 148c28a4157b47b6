import { createEtcdBackend } from '@kapi/storage-etcd';
import { skipWithoutEtcd, startEtcd, type EtcdProcess } from '@kapi/storage-etcd/testing';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, runAsync } from '../src/kubectl.js';
import type { ServerProcess } from '../src/server.js';
import { configMap, eventually, request, startHttpServer, watch, type JsonResponse } from './storage-helpers.js';

// kapi-server on etcd (`--storage-backend=etcd3`), each test file with its own etcd on free loopback ports. In CI
// these run always: a missing etcd binary fails them (.ci/run installs Debian's etcd-server).
const kubectl = kubectlBinaries()[0];
const etcdArgs = (etcd: EtcdProcess, ...more: string[]) => ['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`, ...more];

async function stopAndClean(...servers: (ServerProcess | undefined)[]): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      await server?.stop();
      if (server) rmSync(server.dataDir, { recursive: true, force: true });
    }),
  );
}

describe.skipIf(skipWithoutEtcd())('two kapi-servers on one etcd', () => {
  let etcd: EtcdProcess;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    etcd = await startEtcd();
    // Both at once: they race to create the system namespaces in the same, empty etcd.
    const started = await Promise.allSettled([startHttpServer(etcdArgs(etcd)), startHttpServer(etcdArgs(etcd))]);
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) {
      await stopAndClean(...servers);
      throw failed.reason;
    }
    [a, b] = servers;
  }, 60_000);
  afterAll(async () => {
    await stopAndClean(a, b);
    await etcd?.destroy();
  });

  it('serve the same data: a write through one is seen by a watch on the other', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const listed = await request('GET', `${b.url}${path}`);
    const w = await watch(`${b.url}${path}?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`);
    try {
      const created = await request('POST', `${a.url}${path}`, configMap('shared', { from: 'a' }));
      expect(created.status).toBe(201);
      const [added] = await w.next(1);
      expect(added.type).toBe('ADDED');
      expect(added.object.metadata).toMatchObject({ name: 'shared', uid: created.body.metadata.uid, resourceVersion: created.body.metadata.resourceVersion });

      const read = await request('GET', `${b.url}${path}/shared`);
      expect(read.body).toEqual(created.body);
      const updated = await request('PUT', `${b.url}${path}/shared`, { ...read.body, data: { from: 'b' } });
      expect(updated.status).toBe(200);
      const [, modified] = await w.next(2);
      expect([modified.type, modified.object.data]).toEqual(['MODIFIED', { from: 'b' }]);
      // The version a holds is stale now: optimistic concurrency spans the servers.
      const stale = await request('PUT', `${a.url}${path}/shared`, { ...created.body, data: { from: 'a again' } });
      expect([stale.status, stale.body.reason]).toEqual([409, 'Conflict']);
    } finally {
      w.close();
    }
  });

  it.skipIf(!kubectl)('hand out a node port once: kubectl asking both for the same port at once, one gets it', async () => {
    const create = (server: ServerProcess, name: string) =>
      runAsync(kubectl!.path, ['--kubeconfig=/dev/null', '-s', server.url, 'create', 'service', 'nodeport', name, '--tcp=80:8080', '--node-port=30555']);
    const results = await Promise.all([create(a, 'port-a'), create(b, 'port-b'), create(a, 'port-c'), create(b, 'port-d')]);
    const made = results.filter((r) => r.status === 0);
    expect(made, results.map((r) => r.stderr).join('')).toHaveLength(1);
    for (const refused of results.filter((r) => r.status !== 0)) {
      expect(refused.stderr).toMatch(/spec\.ports\[0\]\.nodePort: Invalid value: 30555: provided port is already allocated/);
    }
    // Free ports picked by both servers at once never collide either.
    const picked = await Promise.all(
      Array.from({ length: 12 }, (_, i) => request('POST', `${(i % 2 ? a : b).url}/api/v1/namespaces/default/services`, { metadata: { name: `pick-${i}` }, spec: { type: 'NodePort', ports: [{ port: 80 }] } })),
    );
    const ports = picked.map((r) => r.body.spec?.ports?.[0]?.nodePort);
    expect(new Set(ports).size).toBe(12);
  });

  it('serve a CustomResourceDefinition created through one: the other serves its resources and deletes them with it', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'things', kind: 'Thing' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } } } } } }],
      },
    };
    expect((await request('POST', `${a.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd)).status).toBe(201);
    const path = '/apis/example.com/v1/namespaces/default/things';
    // b learns of the CRD through its watch on etcd and serves the resource, with the CRD's schema.
    await eventually(async () => ((await request('GET', `${b.url}${path}`)).status === 200 ? true : undefined), 50, 100);
    const thing = (name: string, n: number) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name }, spec: { n } });
    expect((await request('POST', `${b.url}${path}`, thing('from-b', 1))).status).toBe(201);
    expect((await request('POST', `${b.url}${path}`, thing('too-big', 9))).status).toBe(422);
    expect((await request('GET', `${a.url}${path}/from-b`)).body.spec).toEqual({ n: 1 });
    expect((await request('DELETE', `${b.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.example.com`)).status).toBe(200);
    await eventually(async () => ((await request('GET', `${a.url}${path}`)).status === 404 && (await request('GET', `${b.url}${path}`)).status === 404 ? true : undefined), 50, 100);
    expect((await request('GET', `${a.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.example.com`)).status).toBe(404);
  });

  it('collect garbage through the one holding the Lease, custom resources as owners too', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    expect((await request('POST', `${a.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd)).status).toBe(201);
    const gadgets = '/apis/example.com/v1/namespaces/default/gadgets';
    let gadget: JsonResponse = { status: 0, body: {} };
    for (let i = 0; i < 100 && gadget.status !== 201; i++) {
      gadget = await request('POST', `${b.url}${gadgets}`, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } });
      if (gadget.status !== 201) await new Promise((r) => setTimeout(r, 100));
    }
    expect(gadget.status).toBe(201);
    const owner = await request('POST', `${a.url}${cms}`, configMap('gc-owner', {}));
    const ownedBy = (apiVersion: string, kind: string, name: string, uid: string) => ({ apiVersion, kind, name, uid });
    expect((await request('POST', `${b.url}${cms}`, { ...configMap('gc-dep', {}), metadata: { name: 'gc-dep', ownerReferences: [ownedBy('v1', 'ConfigMap', 'gc-owner', owner.body.metadata.uid)] } })).status).toBe(201);
    expect((await request('POST', `${a.url}${cms}`, { ...configMap('gadget-dep', {}), metadata: { name: 'gadget-dep', ownerReferences: [ownedBy('example.com/v1', 'Gadget', 'g', gadget.body.metadata.uid)] } })).status).toBe(201);
    expect((await request('DELETE', `${b.url}${cms}/gc-owner`)).status).toBe(200);
    expect((await request('DELETE', `${a.url}${gadgets}/g`)).status).toBe(200);
    for (const name of ['gc-dep', 'gadget-dep']) {
      let status = 200;
      for (let i = 0; i < 200 && status !== 404; i++) {
        status = (await request('GET', `${a.url}${cms}/${name}`)).status;
        if (status !== 404) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status, name).toBe(404);
    }
    const lease = await request('GET', `${b.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kapi-garbage-collector`);
    expect(lease.body.spec).toMatchObject({ leaseDurationSeconds: 15, holderIdentity: expect.any(String) });
    expect((await request('DELETE', `${a.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com`)).status).toBe(200);
  });

  it('store keys under --etcd-prefix as the registry names them, values as JSON', async () => {
    const created = await request('POST', `${a.url}/apis/apps/v1/namespaces/default/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'layout' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect(created.status).toBe(201);
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint] });
    try {
      const { kv } = await backend.get('/registry/apps/deployments/default/layout');
      expect(kv?.modRevision).toBe(Number(created.body.metadata.resourceVersion));
      const stored = JSON.parse(new TextDecoder().decode(kv!.value));
      expect(stored).toMatchObject({ kind: 'Deployment', metadata: { name: 'layout', uid: created.body.metadata.uid } });
      expect(stored.metadata.resourceVersion).toBeUndefined();
      expect((await backend.list({ prefix: '/registry/namespaces/' })).kvs.map((x) => x.key)).toContain('/registry/namespaces/default');
    } finally {
      await backend.close();
    }
  });

  it('answer an object whose stored bytes cannot be decoded with a 500 Status naming its key', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    expect((await request('POST', `${a.url}${path}`, configMap('corrupt'))).status).toBe(201);
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint] });
    try {
      const key = '/registry/configmaps/default/corrupt';
      const { kv } = await backend.get(key);
      await backend.update(key, new TextEncoder().encode('{"kind": "ConfigMap", trunc'), kv!.modRevision);
    } finally {
      await backend.close();
    }
    for (const server of [a, b]) {
      const res = await request('GET', `${server.url}${path}/corrupt`);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
      expect(res.body.message).toMatch(/corrupt object.*\/registry\/configmaps\/default\/corrupt/i);
    }
  });
});

describe.skipIf(skipWithoutEtcd())('kapi-server when etcd goes away and comes back', () => {
  let etcd: EtcdProcess;
  let server: ServerProcess;
  beforeAll(async () => {
    etcd = await startEtcd();
    server = await startHttpServer(etcdArgs(etcd));
  }, 60_000);
  afterAll(async () => {
    await stopAndClean(server);
    await etcd?.destroy();
  });

  it('fails requests fast with a 5xx Status, ends watches with an error, and resumes by itself', async () => {
    const path = `${server.url}/api/v1/namespaces/default/configmaps`;
    const before = await request('POST', path, configMap('before-outage', { k: 'v' }));
    expect(before.status).toBe(201);
    const w = await watch(`${path}?watch=1&resourceVersion=${before.body.metadata.resourceVersion}`);
    // componentstatuses names the backend etcd-0 and checks it as /readyz does.
    const etcdStatus = `${server.url}/api/v1/componentstatuses/etcd-0`;
    expect((await request('GET', etcdStatus)).body.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);

    await etcd.stop('SIGKILL');

    // The open watch ends with an ERROR event carrying a Status, so clients re-watch.
    await w.ended;
    const last = w.events[w.events.length - 1];
    expect(last?.type).toBe('ERROR');
    expect(last.object).toMatchObject({ kind: 'Status', status: 'Failure' });
    expect(last.object.code).toBeGreaterThanOrEqual(500);

    // Requests get an answer (request() gives up after 30 s: a hang fails the test), a 5xx Status.
    for (const [method, url, body] of [
      ['GET', `${path}/before-outage`, undefined],
      ['GET', path, undefined],
      ['POST', path, configMap('during-outage')],
    ] as const) {
      const res = await request(method, url, body);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code: res.status });
    }
    // Health tells the truth: not ready (etcd named), not healthy, but alive (a restart would not bring etcd back).
    const text = async (p: string) => {
      const res = await fetch(`${server.url}${p}`, { signal: AbortSignal.timeout(30_000) });
      return [res.status, await res.text()] as const;
    };
    const [readyStatus, readyBody] = await text('/readyz?verbose');
    expect(readyStatus).toBe(500);
    expect(readyBody).toContain('[-]etcd failed: reason withheld');
    expect((await text('/healthz'))[0]).toBe(500);
    expect(await text('/livez')).toEqual([200, 'ok']);
    const [unhealthy] = (await request('GET', etcdStatus)).body.conditions;
    expect(unhealthy).toMatchObject({ type: 'Healthy', status: 'False' });
    expect(unhealthy.error).toBeTruthy();

    await etcd.start();
    await eventually(async () => ((await text('/readyz'))[0] === 200 ? true : undefined));
    const back = await eventually(async () => {
      const res = await request('GET', `${path}/before-outage`);
      return res.status === 200 ? res : undefined;
    });
    expect(back.body.data).toEqual({ k: 'v' });
    const after = await request('POST', path, configMap('after-outage'));
    expect(after.status).toBe(201);
    expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Number(before.body.metadata.resourceVersion));
    const w2 = await watch(`${path}?watch=1&resourceVersion=${before.body.metadata.resourceVersion}`);
    try {
      const [added] = await w2.next(1);
      expect([added.type, added.object.metadata.name]).toEqual(['ADDED', 'after-outage']);
    } finally {
      w2.close();
    }
  }, 120_000);
});

describe.skipIf(skipWithoutEtcd())('two kapi-servers on one etcd under different --etcd-prefix', () => {
  let etcd: EtcdProcess;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    etcd = await startEtcd();
    a = await startHttpServer(etcdArgs(etcd, '--etcd-prefix=/kapi-a'));
    b = await startHttpServer(etcdArgs(etcd, '--etcd-prefix=/kapi-b'));
  }, 60_000);
  afterAll(async () => {
    await stopAndClean(a, b);
    await etcd?.destroy();
  });

  it("keep their data apart, and one's writes (which move etcd's revision) never stall the other's reads", async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const written = await request('POST', `${b.url}${path}`, configMap('only-in-b'));
    expect(written.status).toBe(201);
    // Server a's watch cache sees no event for b's write, yet the revision moved: it learns so from etcd's
    // progress notifications, so a read at least that new is served instead of timing out with 504.
    const rv = written.body.metadata.resourceVersion;
    const list = await request('GET', `${a.url}${path}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    expect(list.status).toBe(200);
    expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    expect(list.body.items.map((i: any) => i.metadata.name)).not.toContain('only-in-b');
    const consistent = await request('GET', `${a.url}${path}`);
    expect(Number(consistent.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
  });
});
