// The operator as its author tests it: a real API server per test file from @kapi/testing (CRDs, apps, garbage
// collection), the operator running in the test's process against it, each test in its own namespace.
import { plugin as appsPlugin } from '@kapi/api-apps';
import { apps } from '@kapi/api-apps/client';
import { core } from '@kapi/api-core/client';
import { plugin as apiextensions } from '@kapi/apiextensions';
import { createClient, isNotFound } from '@kapi/client';
import { garbageCollector } from '@kapi/controllers';
import { startTestServer, type TestServer } from '@kapi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuestbookOperator, FIELD_MANAGER, guestbooks, installGuestbookCRD, type Guestbook, type OperatorClient } from '../src/index.js';

let server: TestServer;
let client: OperatorClient;
let operator: ReturnType<typeof createGuestbookOperator>;

beforeAll(async () => {
  server = await startTestServer({ plugins: [appsPlugin, apiextensions], apiServer: { controllers: [garbageCollector()] } });
  client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core, apps });
  await installGuestbookCRD(client);
  operator = createGuestbookOperator({ client });
  await operator.start();
});
afterAll(async () => {
  await operator?.stop();
  await server?.stop();
});

/** Waits for `check` to give a value (the operator works asynchronously); fails after 10 s. */
async function eventually<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const v = await check().catch((e) => (isNotFound(e) ? undefined : Promise.reject(e)));
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const guestbook = (name: string, spec: Guestbook['spec'] = {}): Guestbook => ({ apiVersion: 'webapp.kapi.dev/v1', kind: 'Guestbook', metadata: { name }, spec });

describe('guestbook operator', () => {
  it('makes a Deployment and a Service for a Guestbook, owned by it, and reports them in its status', async () => {
    const ns = await server.createNamespace('gb');
    const created = await client.resource(guestbooks).namespace(ns).create(guestbook('front', { replicas: 2, port: 8080 }));
    // The CRD's defaults apply.
    expect(created.spec.image).toBe('registry.k8s.io/guestbook:v3');

    const deployment = await eventually(() => client.apps.v1.deployments.namespace(ns).get('front'), 'the Deployment');
    expect(deployment.spec?.replicas).toBe(2);
    expect(deployment.spec?.template.spec?.containers[0].image).toBe('registry.k8s.io/guestbook:v3');
    expect(deployment.metadata?.ownerReferences).toEqual([
      { apiVersion: 'webapp.kapi.dev/v1', kind: 'Guestbook', name: 'front', uid: created.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(deployment.metadata?.managedFields?.some((f) => f.manager === FIELD_MANAGER && f.operation === 'Apply')).toBe(true);
    const service = await eventually(() => client.core.v1.services.namespace(ns).get('front'), 'the Service');
    expect(service.spec?.ports?.[0]).toMatchObject({ port: 8080, targetPort: 'http' });
    expect(service.spec?.selector).toEqual({ 'app.kubernetes.io/name': 'guestbook', 'app.kubernetes.io/instance': 'front' });

    const status = await eventually(async () => {
      const gb = await client.resource(guestbooks).namespace(ns).get('front');
      return gb.status?.observedGeneration === 1 ? gb.status : undefined;
    }, 'the status');
    expect(status).toEqual({ observedGeneration: 1, readyReplicas: 0, serviceIP: service.spec?.clusterIP, phase: 'Progressing' });
  });

  it('follows changes to the Guestbook, puts back what is changed or deleted, and goes Ready with the Deployment', async () => {
    const ns = await server.createNamespace('gb');
    const gbs = client.resource(guestbooks).namespace(ns);
    const deployments = client.apps.v1.deployments.namespace(ns);
    await gbs.create(guestbook('shop'));
    const first = await eventually(() => deployments.get('shop'), 'the Deployment');

    await gbs.patch('shop', { spec: { replicas: 3 } });
    await eventually(async () => (await deployments.get('shop')).spec?.replicas === 3, 'three replicas');

    // Someone deletes the Deployment: the operator makes it again.
    await deployments.delete('shop');
    await eventually(async () => {
      const d = await deployments.get('shop');
      return d.metadata?.uid !== first.metadata?.uid && d.spec?.replicas === 3;
    }, 'the Deployment made again');

    // The Deployment's controller reports ready pods: the guestbook goes Ready.
    await deployments.status.patch('shop', { status: { replicas: 3, readyReplicas: 3, availableReplicas: 3 } });
    const ready = await eventually(async () => {
      const gb = await gbs.get('shop');
      return gb.status?.phase === 'Ready' ? gb : undefined;
    }, 'Ready');
    expect(ready.status).toMatchObject({ observedGeneration: 2, readyReplicas: 3 });
  });

  it('leaves nothing behind when the Guestbook is deleted (garbage collection through its ownerReferences)', async () => {
    const ns = await server.createNamespace('gb');
    const gbs = client.resource(guestbooks).namespace(ns);
    await gbs.create(guestbook('gone'));
    await eventually(() => client.core.v1.services.namespace(ns).get('gone'), 'the Service');
    await gbs.delete('gone');
    await eventually(async () => {
      const [d, s] = await Promise.all([client.apps.v1.deployments.namespace(ns).list(), client.core.v1.services.namespace(ns).list()]);
      return d.items.length === 0 && s.items.length === 0;
    }, 'the Deployment and Service collected');
  });

  it('refuses an invalid Guestbook at the API, before the operator sees it', async () => {
    const ns = await server.createNamespace('gb');
    const error = await client
      .resource(guestbooks)
      .namespace(ns)
      .create(guestbook('bad', { replicas: 1000 }))
      .catch((e) => e);
    expect(error.code).toBe(422);
    expect(error.message).toMatch(/spec.replicas/);
  });
});
