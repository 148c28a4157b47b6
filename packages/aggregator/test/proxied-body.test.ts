// Request bodies proxied to an extension server: every body the client sends must reach the extension
// framed as the body of the request it came with. A DELETE whose body arrives streamed (chunked, no Content-Length) is
// the case that breaks: Node's http client sends a DELETE without chunked framing by default, so the extension reads
// a DELETE with no body and then takes the body's bytes for a request of its own, on the aggregator's trusted
// front-proxy connection, with whatever X-Remote-User / X-Remote-Group headers the client wrote into it.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { aggregatorPlugin } from '../src/index.js';
import { hasOpenssl, makeCA } from './pki.js';

const EXT = '/apis/ext.example.com/v1';

interface Seen {
  method: string;
  path: string;
  user?: string;
  groups?: string | string[];
  body: string;
}

describe.skipIf(!hasOpenssl)('aggregator: request bodies reach the extension as sent', () => {
  let main: ApiServer;
  let server: Server;
  const seen: Seen[] = [];

  beforeAll(async () => {
    const ca = makeCA('body-ca');
    server = createServer({ ...ca.serving(['ext.ext.svc']) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        if (path.startsWith('/apis/ext.example.com/v1/namespaces/')) {
          seen.push({ method: req.method ?? '', path, user: req.headers['x-remote-user'] as string, groups: req.headers['x-remote-group'], body: Buffer.concat(chunks).toString() });
        } else if (path.startsWith('/apis/ext.example.com/v1/')) {
          // anything else under the group: only ever a smuggled request
          seen.push({ method: req.method ?? '', path, user: req.headers['x-remote-user'] as string, groups: req.headers['x-remote-group'], body: '' });
        }
        res.setHeader('content-type', 'application/json');
        if (path === '/apis') return void res.end(JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', items: [{ metadata: { name: 'ext.example.com' }, versions: [{ version: 'v1', resources: [{ resource: 'things', scope: 'Namespaced', singularResource: 'thing', verbs: ['get', 'create', 'delete'], responseKind: { group: 'ext.example.com', version: 'v1', kind: 'Thing' } }] }] }] }));
        if (path === EXT) return void res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'ext.example.com/v1', resources: [{ name: 'things', namespaced: true, kind: 'Thing', verbs: ['get', 'create', 'delete'] }] }));
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Success', metadata: {} }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    main = createApiServer({
      storage: createMemoryBackend(),
      plugins: [createCorePlugin(), aggregatorPlugin({ retryIntervalMs: 100, resyncIntervalMs: 500 })],
      limits: { requestTimeoutMs: 5_000, maxResourceWriteBytes: 10_000 },
    });
    await main.start();
    const post = (path: string, body: unknown) =>
      main.fetch(new Request(`https://kapi.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ext' } });
    await post('/api/v1/namespaces/ext/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'localhost' } });
    await post('/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.ext.example.com' },
      spec: { group: 'ext.example.com', version: 'v1', service: { namespace: 'ext', name: 'ext', port }, caBundle: ca.caBundle, groupPriorityMinimum: 100, versionPriority: 10 },
    });
    for (let i = 0; ; i++) {
      const res = await main.fetch(new Request('https://kapi.test/apis', { headers: { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE } }));
      const body = (await res.json()) as { items: { metadata: { name: string } }[] };
      if (body.items.some((g) => g.metadata.name === 'ext.example.com')) break;
      if (i > 600) throw new Error('the APIService never became available');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);
  afterAll(async () => {
    await main?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  /** A request whose body is streamed (no Content-Length: chunked on the wire, as a client may send it). */
  const streamed = (method: string, path: string, body: string, contentType = 'application/json', pieceBytes = Infinity) =>
    main.fetch(
      new Request(`https://kapi.test${path}`, {
        method,
        headers: { 'content-type': contentType },
        body: new ReadableStream<Uint8Array>({
          async start(controller) {
            const bytes = new TextEncoder().encode(body);
            for (let at = 0; at < bytes.length; at += pieceBytes) {
              controller.enqueue(bytes.subarray(at, Math.min(bytes.length, at + pieceBytes)));
              if (pieceBytes !== Infinity) await new Promise((r) => setTimeout(r, 50));
            }
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit),
    );

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`passes a streamed ${method} body on as that request's body`, async () => {
      seen.length = 0;
      const body = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
      const path = method === 'POST' ? `${EXT}/namespaces/default/things` : `${EXT}/namespaces/default/things/t`;
      const res = await streamed(method, path, body, method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
      await res.text();
      await settle();
      expect(seen).toEqual([expect.objectContaining({ method, path, body })]);
      expect(res.status).toBe(200);
    });
  }

  it('never lets a DELETE body reach the extension as a request of its own (request smuggling)', async () => {
    seen.length = 0;
    const smuggled = `GET ${EXT}/smuggled HTTP/1.1\r\nHost: x\r\nX-Remote-User: system:admin\r\nX-Remote-Group: system:masters\r\n\r\n`;
    const res = await streamed('DELETE', `${EXT}/namespaces/default/things/t`, smuggled);
    await res.text();
    await settle();
    expect(seen.filter((s) => s.path.endsWith('/smuggled'))).toEqual([]);
    expect(seen.every((s) => s.user !== 'system:admin')).toBe(true);
  });

  it('does not carry out a DELETE at the extension when its body is answered 413', async () => {
    seen.length = 0;
    const res = await streamed('DELETE', `${EXT}/namespaces/default/things/t`, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'x'.repeat(20_000) } }), 'application/json', 6_000);
    expect(res.status).toBe(413);
    await res.text();
    await settle();
    expect(seen.filter((s) => s.method === 'DELETE')).toEqual([]);
  });
});
