// Requests to an extension over kept-alive connections: an extension may close an idle connection just as the
// aggregator sends the next request on it. Go's http.Transport sends such a body-less GET again on a new
// connection; an availability check failing on that race would mark the APIService unavailable and end its watches.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDialers, getBody, send } from '../src/transport.js';
import type { APIService } from '../src/apiservice/types.js';
import { hasOpenssl, makeCA } from './pki.js';

describe.skipIf(!hasOpenssl)('transport to an extension that drops kept-alive connections', () => {
  let server: Server;
  let target: URL;
  let dialers: ReturnType<typeof createDialers>;
  let apiService: APIService;
  const requests: string[] = [];

  beforeAll(async () => {
    const ca = makeCA('transport-ca');
    // Answers the first request on each connection and keeps it open; a later request on the same connection finds
    // it closed under it, with no answer (what a keep-alive timeout racing a new request looks like to the client).
    server = createServer({ ...ca.serving(['ext.ext.svc']) }, (req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const served = (req.socket as { served?: number }).served ?? 0;
      (req.socket as { served?: number }).served = served + 1;
      if (served > 0) return void req.socket.destroy();
      req.resume();
      req.on('end', () => res.end('{"kind":"APIResourceList"}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    dialers = createDialers(undefined);
    apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.ext.example.com' }, spec: { group: 'ext.example.com', version: 'v1', service: { namespace: 'ext', name: 'ext' }, caBundle: ca.caBundle, groupPriorityMinimum: 1, versionPriority: 1 } } as APIService;
  });
  afterAll(() => {
    dialers?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('sends a GET again on a new connection when the kept-alive one is closed under it', async () => {
    requests.length = 0;
    const dialer = dialers.get(apiService);
    const first = await getBody(dialer, target, '/apis/ext.example.com/v1', {}, 5_000);
    expect(first.body.toString()).toContain('APIResourceList');
    const second = await getBody(dialer, target, '/apis/ext.example.com/v1', {}, 5_000);
    expect(second.body.toString()).toContain('APIResourceList');
    // the second went out twice: once on the dropped connection, once on a new one
    expect(requests).toEqual(['GET /apis/ext.example.com/v1', 'GET /apis/ext.example.com/v1', 'GET /apis/ext.example.com/v1']);
  });

  it('does not send a POST again: the extension may have carried it out', async () => {
    requests.length = 0;
    // a dialer of its own: no connection left kept alive by the test above
    const dialer = dialers.get({ ...apiService, metadata: { name: 'v1.other.example.com' } });
    const post = () => send(dialer, target, { method: 'POST', path: '/apis/ext.example.com/v1/things', headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from('{}')]) });
    const res = await post();
    res.resume();
    await new Promise((resolve) => res.once('end', resolve));
    await expect(post()).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toEqual(['POST /apis/ext.example.com/v1/things', 'POST /apis/ext.example.com/v1/things']);
  });
});
