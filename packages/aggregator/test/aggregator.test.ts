import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { plugin as discovery } from '@kapi/api-discovery';
import { plugin as wardle } from '@kapi/api-wardle';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, createApiServer, tokenFileAuthenticator, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { aggregatorPlugin } from '../src/index.js';
import { startExtension, startHungServer, type TestExtension } from './extension.js';
import { hasOpenssl, makeCA, type TestCA } from './pki.js';

const TOKEN = 'alice-token';
const WARDLE = '/apis/wardle.example.com/v1alpha1';

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

describe.skipIf(!hasOpenssl)('aggregator: APIServices in front of a real HTTPS extension server', () => {
  let main: ApiServer;
  let ext: TestExtension;
  let servingCA: TestCA;
  let frontProxyCA: TestCA;

  const req = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await main.fetch(new Request(`https://kapi.test${path}`, init));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const until = async <T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> => {
    for (let i = 0; i < 600; i++) {
      const value = await check();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`not met in 30 s: ${what}`);
  };
  const available = async (name: string) => {
    const res = await req('GET', `/apis/apiregistration.k8s.io/v1/apiservices/${name}`);
    return res.body?.status?.conditions?.find((c: { type: string }) => c.type === 'Available');
  };
  const untilAvailable = (name: string, status: string, reason?: string) =>
    until(async () => {
      const c = await available(name);
      return c?.status === status && (!reason || c.reason === reason) && c;
    }, `${name} Available=${status} ${reason ?? ''}`);
  // A replace of the APIService as read (kube's APIService strategy needs the resourceVersion on every update).
  const registerService = async (port: number, spec: Record<string, unknown> = {}) =>
    req('PUT', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: {
        name: 'v1alpha1.wardle.example.com',
        resourceVersion: (await req('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com')).body?.metadata?.resourceVersion,
      },
      spec: {
        group: 'wardle.example.com',
        version: 'v1alpha1',
        service: { namespace: 'wardle', name: 'api', port },
        caBundle: servingCA.caBundle,
        groupPriorityMinimum: 1000,
        versionPriority: 15,
        ...spec,
      },
    });

  beforeAll(async () => {
    servingCA = makeCA('serving-ca');
    frontProxyCA = makeCA('front-proxy-ca');
    ext = await startExtension(servingCA.serving(['api.wardle.svc', 'cluster.wardle.svc']), frontProxyCA.cert);
    main = createApiServer({
      storage: createMemoryBackend(),
      plugins: [
        createCorePlugin(),
        discovery,
        wardle,
        aggregatorPlugin({ proxyClientCertificate: frontProxyCA.client('front-proxy-client'), retryIntervalMs: 100, resyncIntervalMs: 500 }),
      ],
      authenticators: [tokenFileAuthenticator(`${TOKEN},alice,uid-1,"devs,ops"`)],
    });
    await main.start();
    await req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wardle' } });
    await req('POST', '/api/v1/namespaces/wardle/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api' },
      spec: { type: 'ExternalName', externalName: 'localhost' },
    });
  });
  afterAll(async () => {
    await main?.stop();
    await ext?.close();
  });

  it('registers a Local APIService, Available, for every group version served in-process', async () => {
    const list = await until(async () => {
      const res = await req('GET', '/apis/apiregistration.k8s.io/v1/apiservices');
      return res.body.items?.length >= 4 && res.body;
    }, 'local APIServices');
    const names = list.items.map((o: any) => o.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['v1.', 'v1.apiregistration.k8s.io', 'v1.discovery.k8s.io', 'v1alpha1.wardle.example.com', 'v1beta1.wardle.example.com']));
    const core = list.items.find((o: any) => o.metadata.name === 'v1.');
    expect(core.metadata.labels['kube-aggregator.kubernetes.io/automanaged']).toBe('onstart');
    expect(core.spec).toMatchObject({ group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    expect(await untilAvailable('v1.', 'True')).toMatchObject({ reason: 'Local', message: 'Local APIServices are always available' });
    const table = await req('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.', undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['v1.', 'Local', 'True']);
  });

  it('refuses APIServices kube refuses, with kube field errors', async () => {
    const bad = await req('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.wrong.example.com' },
      spec: { group: 'other.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 2000, caBundle: 'AAAA', insecureSkipTLSVerify: true, service: { namespace: 'x', name: 'y', port: 70000 } },
    });
    expect(bad.status).toBe(422);
    const fields = bad.body.details.causes.map((c: { field: string }) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['metadata.name', 'spec.groupPriorityMinimum', 'spec.versionPriority', 'spec.insecureSkipTLSVerify', 'spec.service.port']));
    const local = await req('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.local.example.com' },
      spec: { group: 'local.example.com', version: 'v1', groupPriorityMinimum: 10, versionPriority: 10, caBundle: 'AAAA' },
    });
    expect(local.status).toBe(422);
    expect(local.body.message).toContain('local APIServices may not have a caBundle');
  });

  it('proxies every verb to the extension as the authenticated user, over the front-proxy certificate, taking precedence over the in-process group', async () => {
    // an object only the in-process wardle has: hidden once the APIService sends the group version away
    expect((await req('POST', `${WARDLE}/namespaces/default/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'local-only' } })).status).toBe(201);
    expect((await registerService(ext.port)).status).toBe(200);
    await untilAvailable('v1alpha1.wardle.example.com', 'True', 'Passed');

    const created = await req('POST', `${WARDLE}/namespaces/default/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'remote' } }, {
      'x-remote-user': 'mallory',
      'x-remote-group': 'system:masters',
    });
    expect(created.status).toBe(201);
    const post = ext.seen.findLast((s) => s.method === 'POST')!;
    expect(post.clientCN).toBe('front-proxy-client');
    expect(post.headers['x-remote-user']).toBe('alice');
    expect(post.headers['x-remote-group']).toBe('devs, ops, system:authenticated');
    expect(post.headers.authorization).toBeUndefined();
    expect(JSON.stringify(post.headers)).not.toContain('mallory');
    // stored by the extension, not the main server
    const names = (await req('GET', `${WARDLE}/namespaces/default/flunders`)).body.items.map((o: any) => o.metadata.name);
    expect(names).toEqual(['remote']);
    const patched = await req('PATCH', `${WARDLE}/namespaces/default/flunders/remote`, { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.body.metadata.labels).toEqual({ a: 'b' });
    const applied = await req('PATCH', `${WARDLE}/namespaces/default/flunders/applied?fieldManager=test`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'applied' } }, {
      'content-type': 'application/apply-patch+yaml',
    });
    expect(applied.status).toBe(201);
    const table = await req('GET', `${WARDLE}/namespaces/default/flunders`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.kind).toBe('Table');
    expect((await req('DELETE', `${WARDLE}/namespaces/default/flunders/applied`)).status).toBe(200);
    expect((await req('GET', `${WARDLE}/namespaces/default/flunders/applied`)).status).toBe(404);
    // impersonation applies before the proxy: the extension hears of the impersonated user and their extra
    await req('GET', `${WARDLE}/flunders`, undefined, { 'impersonate-user': 'bob', 'impersonate-extra-scopes': 'read write' });
    // The last list of flunders (the availability checker's probes, as system:kube-aggregator, may come after it).
    const impersonated = ext.seen.findLast((s) => s.method === 'GET' && s.path.startsWith('/apis/wardle.example.com/v1alpha1/flunders'))!;
    expect(impersonated.headers['x-remote-user']).toBe('bob');
    expect(impersonated.headers['x-remote-extra-scopes']).toBe('read write');
  });

  it('merges what the extension serves into discovery and OpenAPI', async () => {
    const aggregated = await req('GET', '/apis', undefined, { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE });
    const group = aggregated.body.items.find((g: any) => g.metadata.name === 'wardle.example.com');
    const v1alpha1 = group.versions.find((v: any) => v.version === 'v1alpha1');
    expect(v1alpha1.resources.map((r: any) => r.resource).sort()).toEqual(['fischers', 'flunders']);
    expect(v1alpha1.freshness).toBe('Current');
    // kube's group order: the groups' priorities, highest first
    const order = aggregated.body.items.map((g: any) => g.metadata.name);
    expect(order.indexOf('apiregistration.k8s.io')).toBeLessThan(order.indexOf('discovery.k8s.io'));
    expect(order.indexOf('discovery.k8s.io')).toBeLessThan(order.indexOf('wardle.example.com'));
    const legacy = await req('GET', '/apis/wardle.example.com');
    expect(legacy.body.versions.map((v: any) => v.version)).toEqual(expect.arrayContaining(['v1alpha1', 'v1beta1']));
    const index = await req('GET', '/openapi/v3');
    const url = index.body.paths['apis/wardle.example.com/v1alpha1'].serverRelativeURL;
    const doc = await req('GET', url);
    expect(Object.keys(doc.body.paths)).toContain('/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders');
    const v2 = await req('GET', '/openapi/v2');
    expect(Object.keys(v2.body.paths)).toContain('/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders');
  });

  it('streams a watch through the proxy, and ends it cleanly when the extension dies; then 503 until it is back', async () => {
    const res = await main.fetch(new Request(`https://kapi.test${WARDLE}/namespaces/default/flunders?watch=1`, { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(res.status).toBe(200);
    const body = res.body!.getReader();
    let seen = '';
    // A read that does not come within 30 s fails with what the watch and the extension saw, rather than the test's
    // own timeout, which says nothing.
    const reader = {
      read: async (step: string) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(async () => {
            const requests = ext.seen.slice(-6).map((r) => `${r.method} ${r.path}`).join(', ');
            reject(new Error(`no data within 30 s (${step}); read so far: ${seen}; Available: ${JSON.stringify(await available('v1alpha1.wardle.example.com'))}; the extension's last requests: ${requests}`));
          }, 30_000);
        });
        try {
          return await Promise.race([body.read(), late]);
        } finally {
          clearTimeout(timer);
        }
      },
    };
    const first = new TextDecoder().decode((await reader.read('the first event')).value);
    seen += first;
    expect(first).toContain('"ADDED"');
    await ext.api.fetch(new Request(`https://ext${WARDLE}/namespaces/default/flunders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'live' } }),
    }));
    while (!seen.includes('"live"')) {
      const { done, value } = await reader.read('the event of "live"');
      // A watch that ends first would make this loop spin; say why instead (the proxy ends watches when the
      // APIService turns unavailable).
      if (done) throw new Error(`the watch ended before the event; Available: ${JSON.stringify(await available('v1alpha1.wardle.example.com'))}; got ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    await ext.close();
    try {
      // the stream ends (done), not an error
      for (;;) {
        const { done } = await reader.read('the end of the watch once the extension closed');
        if (done) break;
      }
      const down = await req('GET', `${WARDLE}/flunders`);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
      const condition = await untilAvailable('v1alpha1.wardle.example.com', 'False', 'FailedDiscoveryCheck');
      expect(condition.message).toContain(`failing or missing response from https://localhost:${ext.port}/apis/wardle.example.com/v1alpha1`);
      const discovery = await req('GET', '/apis', undefined, { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE });
      const stale = discovery.body.items.find((g: any) => g.metadata.name === 'wardle.example.com').versions.find((v: any) => v.version === 'v1alpha1');
      expect(stale.freshness).toBe('Stale');
    } finally {
      // back even when a check above failed: the tests after this one need the extension
      await ext.restart();
    }
    await untilAvailable('v1alpha1.wardle.example.com', 'True');
    expect((await req('GET', `${WARDLE}/flunders`)).status).toBe(200);
  });

  it('answers 503 with the condition kube sets for each way an APIService can point at nothing', async () => {
    const hung = await startHungServer();
    try {
      const cases: [string, () => Promise<unknown>, string, RegExp][] = [
        ['no such Service', () => registerService(ext.port, { service: { namespace: 'wardle', name: 'missing', port: ext.port } }), 'ServiceNotFound', /service\/missing in "wardle" is not present/],
        ['a port that refuses', async () => registerService(await closedPort()), 'FailedDiscoveryCheck', /ECONNREFUSED/],
        ['the wrong CA', () => registerService(ext.port, { caBundle: makeCA('other-ca').caBundle }), 'FailedDiscoveryCheck', /certificate/i],
        ['a server that hangs', () => registerService(hung.port), 'FailedDiscoveryCheck', /timed out waiting for/],
      ];
      for (const [what, register, reason, message] of cases) {
        await register();
        const condition = await until(async () => {
          const c = await available('v1alpha1.wardle.example.com');
          return c?.status === 'False' && c.reason === reason && message.test(c.message) && c;
        }, what);
        expect(condition.message, what).toMatch(message);
        const res = await req('GET', `${WARDLE}/flunders`);
        expect(res.status, what).toBe(503);
        expect(res.body.kind, what).toBe('Status');
      }
      // a ClusterIP Service without endpoints, then with a ready one at the extension
      await req('POST', '/api/v1/namespaces/wardle/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'cluster' }, spec: { ports: [{ name: 'https', port: 443 }] } });
      await registerService(443, { service: { namespace: 'wardle', name: 'cluster', port: 443 } });
      await untilAvailable('v1alpha1.wardle.example.com', 'False', 'EndpointsNotFound');
      await req('POST', '/apis/discovery.k8s.io/v1/namespaces/wardle/endpointslices', {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'cluster-1', labels: { 'kubernetes.io/service-name': 'cluster' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
        ports: [{ name: 'https', port: ext.port }],
      });
      const slice = await req('GET', '/apis/discovery.k8s.io/v1/namespaces/wardle/endpointslices/cluster-1');
      expect(slice.status).toBe(200);
      await untilAvailable('v1alpha1.wardle.example.com', 'True');
      expect((await req('GET', `${WARDLE}/flunders`)).status).toBe(200);
    } finally {
      await hung.close();
    }
  });

  it('serves the group version in-process again once its APIService is deleted', async () => {
    expect((await req('DELETE', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com')).status).toBe(200);
    const names = await until(async () => {
      const res = await req('GET', `${WARDLE}/namespaces/default/flunders`);
      return res.status === 200 && res.body.items.some((o: any) => o.metadata.name === 'local-only') && res.body.items.map((o: any) => o.metadata.name);
    }, 'local wardle served again');
    expect(names).toEqual(['local-only']);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
