// @kapi/testing as an operator author uses it: a real server per test, @kubernetes/client-node through the kubeconfig.
import { connect } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { plugin as apps } from '@kapi/api-apps';
import { startTestServer, type TestServer } from '@kapi/testing';

const started: TestServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

async function start(options?: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  started.push(server);
  return server;
}

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.on('connect', () => (socket.destroy(), resolve(false)));
    socket.on('error', () => resolve(true));
  });

describe('@kapi/testing startTestServer', () => {
  it('serves the groups given over HTTPS to @kubernetes/client-node through its kubeconfig', async () => {
    const server = await start({ plugins: [apps] });
    const namespace = await server.createNamespace('shop');
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig!);
    const appsApi = kc.makeApiClient(k8s.AppsV1Api);
    await appsApi.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
      },
    });
    const listed = await appsApi.listNamespacedDeployment({ namespace });
    expect(listed.items.map((d) => d.metadata?.name)).toEqual(['web']);
    // Defaulted as kube defaults a Deployment.
    expect(listed.items[0].spec?.replicas).toBe(1);
    // The in-process fetch sees the same object, as the admin.
    const res = await server.fetch(`/apis/apps/v1/namespaces/${namespace}/deployments/web`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { metadata: { uid: string } }).metadata.uid).toBe(listed.items[0].metadata?.uid);
  });

  it('keeps servers apart, and stop() closes the port', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.url).not.toBe(b.url);
    await a.createNamespace('only-a').then(async (name) => {
      expect((await a.fetch(`/api/v1/namespaces/${name}`)).status).toBe(200);
      expect((await b.fetch(`/api/v1/namespaces/${name}`)).status).toBe(404);
    });
    await a.stop();
    expect(await refused(a.url!)).toBe(true);
    // Without the admin's certificate the server answers 401.
    const anonymous = await b.apiServer.fetch(new Request(`${b.url}/api/v1/namespaces`));
    expect(anonymous.status).toBe(401);
  });

  it('runs without a socket when asked', async () => {
    const server = await start({ listen: false });
    expect(server.url).toBeUndefined();
    expect(server.kubeconfig).toBeUndefined();
    const res = await server.fetch('/api/v1/namespaces/default');
    expect(res.status).toBe(200);
  });
});
