// A hostile or broken extension server behind the aggregator: what it answers must not reach clients in a form that
// hurts them (redirects carrying credentials, answers cut short that look whole, answers that never end) nor break
// the main server's discovery and OpenAPI for everyone.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { aggregatorPlugin } from '../src/index.js';
import { hasOpenssl, makeCA } from './pki.js';

const EVIL = '/apis/evil.example.com/v1';

/** Answers discovery with malformed entries, OpenAPI with hostile keys, and misbehaves on a few paths. */
function hostileHandler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const path = (req.url ?? '').split('?')[0];
  const json = (body: unknown, type = 'application/json') => {
    res.setHeader('content-type', type);
    res.end(JSON.stringify(body));
  };
  switch (path) {
    case '/apis':
      return json(
        {
          kind: 'APIGroupDiscoveryList',
          apiVersion: 'apidiscovery.k8s.io/v2',
          items: [{ metadata: { name: 'evil.example.com' }, versions: [{ version: 'v1', resources: [null, 5, { resource: 'things', scope: 'Namespaced', verbs: 'notalist' }, { resource: 'weird', scope: 'Weird', verbs: [] }, { resource: 'goods', scope: 'Namespaced', singularResource: 'good', verbs: ['get', 'list'], responseKind: { group: 'evil.example.com', version: 'v1', kind: 'Good' }, extra: 'dropped' }] }] }],
        },
        AGGREGATED_DISCOVERY_CONTENT_TYPE,
      );
    case EVIL:
      return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'evil.example.com/v1', resources: [] });
    case '/openapi/v2':
      res.setHeader('content-type', 'application/json');
      return void res.end('{"swagger":"2.0","paths":{"__proto__":{"get":{}},"/apis/evil.example.com/v1/goods":{"get":{}}},"definitions":{"__proto__":{"type":"object"}}}');
    case '/openapi/v3':
      return json({ paths: { 'apis/evil.example.com/v1': { serverRelativeURL: '/openapi/v3/apis/evil.example.com/v1' } } });
    case '/openapi/v3/apis/evil.example.com/v1':
      return json([1, 2, 3]);
    case `${EVIL}/redirect`:
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return void res.end();
    case `${EVIL}/switch`:
      // a 101 written on the raw socket to a request that asked for no upgrade
      res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: evil\r\n\r\n');
      return;
    case `${EVIL}/stall`:
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.write('{');
    case `${EVIL}/cut`:
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":"List","items":[');
      return void setTimeout(() => res.socket?.destroy(), 50);
    case '/api/v1':
      return json({ kind: 'APIResourceList', groupVersion: 'v1', resources: [] });
    case '/api/v1/namespaces':
      return json({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'from-the-extension' } }] });
    case `${EVIL}/echo`:
      return json({ user: req.headers['x-remote-user'], groups: req.headers['x-remote-group'], custom: req.headers['x-custom'] ?? null });
    default:
      res.statusCode = 404;
      res.end();
  }
}

describe.skipIf(!hasOpenssl)('aggregator: a hostile extension server', () => {
  let main: ApiServer;
  let server: Server;

  const fetchMain = (path: string, headers: Record<string, string> = {}) => main.fetch(new Request(`https://kapi.test${path}`, { headers }));
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 600; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('not met in 30 s');
  };

  beforeAll(async () => {
    const ca = makeCA('hostile-ca');
    server = createServer({ ...ca.serving(['evil.evil.svc']) }, hostileHandler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    main = createApiServer({
      storage: createMemoryBackend(),
      plugins: [createCorePlugin(), aggregatorPlugin({ retryIntervalMs: 100, resyncIntervalMs: 500 })],
      limits: { requestTimeoutMs: 2_000 },
    });
    await main.start();
    const post = (path: string, body: unknown) =>
      main.fetch(new Request(`https://kapi.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'evil' } });
    await post('/api/v1/namespaces/evil/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'evil' }, spec: { type: 'ExternalName', externalName: 'localhost' } });
    await post('/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.evil.example.com' },
      spec: { group: 'evil.example.com', version: 'v1', service: { namespace: 'evil', name: 'evil', port }, caBundle: ca.caBundle, groupPriorityMinimum: 100, versionPriority: 10 },
    });
    await until(async () => {
      const res = await fetchMain('/apis', { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE });
      const body = (await res.json()) as any;
      return body.items.some((g: any) => g.metadata.name === 'evil.example.com');
    });
  });
  afterAll(async () => {
    await main?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it("keeps only the well-formed resources of the extension's discovery, rebuilt field by field", async () => {
    const body = (await (await fetchMain('/apis', { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE })).json()) as any;
    const evil = body.items.find((g: any) => g.metadata.name === 'evil.example.com');
    expect(evil.versions[0].resources).toEqual([
      { resource: 'goods', responseKind: { group: 'evil.example.com', version: 'v1', kind: 'Good' }, scope: 'Namespaced', singularResource: 'good', verbs: ['get', 'list'] },
    ]);
  });

  it('merges no `__proto__` key and no document that is not one into OpenAPI, which stays served', async () => {
    const v2 = await fetchMain('/openapi/v2');
    expect(v2.status).toBe(200);
    const text = await v2.text();
    expect(text).not.toContain('__proto__');
    expect(JSON.parse(text).paths).toHaveProperty(['/apis/evil.example.com/v1/goods']);
    const index = (await (await fetchMain("/openapi/v3")).json()) as any;
    expect(index.paths).not.toHaveProperty(['apis/evil.example.com/v1']);
  });

  it("refuses to pass on the extension's redirect (it would carry the client's credentials elsewhere): 502", async () => {
    const res = await fetchMain(`${EVIL}/redirect`);
    expect(res.status).toBe(502);
    expect(res.headers.get('location')).toBeNull();
    expect((await res.json()) as any).toMatchObject({ kind: 'Status', code: 502, message: 'the backend attempted to redirect this request, which is not permitted' });
  });

  it('refuses a protocol switch the client did not ask for: 502 at once', async () => {
    const res = await fetchMain(`${EVIL}/switch`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).message).toBe('the backend switched protocols on a request that did not ask to upgrade');
  });

  it('fails an answer that is cut short, so it cannot pass for a complete one', async () => {
    const res = await fetchMain(`${EVIL}/cut`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('fails an answer that stalls after its headers once the request timeout passes', async () => {
    const res = await fetchMain(`${EVIL}/stall`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('sends user names as UTF-8 and never the headers the client names in Connection', async () => {
    const { proxiedRequestHeaders } = await import('../src/proxy/headers.js');
    const headers = proxiedRequestHeaders(new Headers({ connection: 'keep-alive, X-Custom', 'x-custom': 'secret' }), { username: 'josé 用户', groups: ['ü'] });
    expect(headers['x-custom']).toBeUndefined();
    expect(Buffer.from(headers['x-remote-user'] as string, 'latin1').toString('utf8')).toBe('josé 用户');
    expect(() => proxiedRequestHeaders(new Headers(), { username: 'bad\nname', groups: [] })).toThrow();
  });

  it('sends the legacy core group (/api/v1) away too when the `v1.` APIService names a Service', async () => {
    const port = (server.address() as AddressInfo).port;
    const patched = await main.fetch(
      new Request('https://kapi.test/apis/apiregistration.k8s.io/v1/apiservices/v1.', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { service: { namespace: 'evil', name: 'evil', port }, insecureSkipTLSVerify: true } }),
      }),
    );
    expect(patched.status).toBe(200);
    await until(async () => {
      const res = await fetchMain('/api/v1/namespaces');
      return res.status === 200 && ((await res.json()) as any).items[0]?.metadata.name === 'from-the-extension';
    });
  });
});
