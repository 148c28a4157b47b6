import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { group as core } from '@kapi/api-core';
import { createApiServer, groupPlugin } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { X509Certificate } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { closeOnSignals, startServer, type FetchEnv, type RunningServer, type ServedApi } from '../src/serve.js';
import { ensureClientCertificates, ensureSelfSignedCertificates, type GeneratedCertificates } from '../src/tls.js';

/** Stands in for @kapi/apiserver's ApiServer: health, a slow request, and a watch that never ends by itself. */
function fakeApiServer() {
  const events: string[] = [];
  let slowStarted: () => void = () => {};
  const slowStartedPromise = new Promise<void>((resolve) => (slowStarted = resolve));
  const api: ServedApi = {
    async start() {
      events.push('start');
    },
    async stop() {
      events.push('stop');
    },
    async fetch(req) {
      const url = new URL(req.url);
      events.push(`${req.method} ${url.pathname}${url.search}`);
      if (url.pathname === '/readyz') return new Response('ok', { headers: { 'content-type': 'text/plain' } });
      if (url.pathname === '/slow') {
        slowStarted();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return new Response('done');
      }
      if (url.searchParams.get('watch') === 'true') {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"type":"ADDED","object":{}}\n'));
          },
          cancel() {
            events.push('watch cancelled');
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/json' } });
      }
      return new Response('not found', { status: 404 });
    },
  };
  return { api, events, slowStarted: slowStartedPromise };
}

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: string;
  socket: Socket;
}

function get(url: string, options: { ca?: string; agent?: Agent; servername?: string } = {}): Promise<Reply> {
  const send = url.startsWith('https:') ? request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { ca: options.ca, agent: options.agent, servername: options.servername }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body, socket: req.socket as Socket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

let tls: GeneratedCertificates;
beforeAll(async () => {
  tls = await ensureSelfSignedCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-serve-')), bindAddress: '127.0.0.1' });
});

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(api: ServedApi, extra: { insecurePort?: number | 'ephemeral'; securePort?: number | 'ephemeral' } = {}) {
  const logs: string[] = [];
  const server = await startServer({
    apiServer: api,
    bindAddress: '127.0.0.1',
    securePort: extra.securePort ?? 'ephemeral',
    insecurePort: extra.insecurePort,
    tls,
    log: (line) => logs.push(line),
    shutdownTimeoutMs: 10_000,
  });
  running.push(server);
  return { server, logs };
}

describe('startServer', () => {
  it('serves the ApiServer over HTTPS with the generated CA, after starting it', async () => {
    const { api, events } = fakeApiServer();
    const { server, logs } = await start(api);
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.urls).toEqual({ https: server.url });
    expect(logs).toEqual([`kapi-server listening on ${server.url}`]);

    const reply = await get(`${server.url}/readyz`, { ca: tls.ca });
    expect(reply).toMatchObject({ status: 200, body: 'ok' });
    // The certificate is also valid for the name localhost.
    expect((await get(`${server.url}/readyz`, { ca: tls.ca, servername: 'localhost' })).body).toBe('ok');
    expect(events.slice(0, 2)).toEqual(['start', 'GET /readyz']);

    await server.close();
    expect(events.at(-1)).toBe('stop');
  });

  it('adds the headers the ApiServer sets for an answer to every kind of response, once', async () => {
    // One headers object for every answer of /shared: the header added for each answer must not stay on it.
    const shared = { 'Content-Type': 'text/plain', 'X-Kind': 'shared' };
    const answers: Record<string, () => Response> = {
      '/shared': () => new Response('shared', { headers: shared }),
      '/plain': () => new Response('plain', { headers: { 'Content-Type': 'text/plain', 'X-Kind': 'plain' } }),
      '/headers': () => new Response('headers', { headers: new Headers({ 'content-type': 'text/plain', 'x-kind': 'headers' }) }),
      '/bare': () => new Response('bare'),
      '/empty': () => new Response(null, { status: 204, headers: { 'X-Kind': 'empty' } }),
      '/stream': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('streamed'));
              controller.close();
            },
          }),
          { headers: { 'Content-Type': 'text/plain', 'X-Kind': 'stream' } },
        ),
    };
    const api: ServedApi = {
      async start() {},
      async stop() {},
      fetch(req, env) {
        const path = new URL(req.url).pathname;
        env?.setResponseHeader?.('Audit-Id', `id${path.replace('/', '-')}`);
        return answers[path]?.() ?? new Response('?', { status: 404 });
      },
    };
    const { server } = await start(api, { insecurePort: 'ephemeral' });
    for (const base of [server.urls.http!, server.urls.https!]) {
      for (const path of Object.keys(answers)) {
        const reply = await get(`${base}${path}`, { ca: tls.ca });
        expect([path, reply.status, reply.headers['audit-id'], reply.rawHeaders.filter((h) => h.toLowerCase() === 'audit-id').length]).toEqual([
          path,
          path === '/empty' ? 204 : 200,
          `id-${path.slice(1)}`,
          1,
        ]);
        if (path !== '/bare') expect(reply.headers['x-kind']).toBe(path.slice(1));
        expect(reply.body).toBe(path === '/empty' ? '' : path.slice(1) === 'stream' ? 'streamed' : path.slice(1));
      }
    }
    expect(shared).toEqual({ 'Content-Type': 'text/plain', 'X-Kind': 'shared' });
  });

  it('refuses clients that do not trust the CA', async () => {
    const { server } = await start(fakeApiServer().api);
    await expect(get(`${server.url}/readyz`)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    const other = await ensureSelfSignedCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-other-')), bindAddress: '127.0.0.1' });
    await expect(get(`${server.url}/readyz`, { ca: other.ca })).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('serves plain HTTP on the insecure port, alone or beside HTTPS', async () => {
    const both = await start(fakeApiServer().api, { insecurePort: 'ephemeral' });
    expect(both.server.url).toBe(both.server.urls.https);
    expect((await get(`${both.server.urls.http}/readyz`)).body).toBe('ok');
    expect((await get(`${both.server.urls.https}/readyz`, { ca: tls.ca })).body).toBe('ok');
    expect(both.logs[1]).toMatch(/^kapi-server listening on http:\/\/127\.0\.0\.1:\d+ /);

    const plain = await start(fakeApiServer().api, { securePort: 0, insecurePort: 'ephemeral' });
    expect(plain.server.urls).toEqual({ http: plain.server.url });
    expect((await get(`${plain.server.url}/readyz`)).body).toBe('ok');
  });

  it('reports a port in use and stops the ApiServer again', async () => {
    const { server } = await start(fakeApiServer().api);
    const port = Number(new URL(server.url).port);
    const second = fakeApiServer();
    await expect(start(second.api, { securePort: port })).rejects.toThrow(`failed to listen on 127.0.0.1:${port}: address already in use`);
    expect(second.events).toEqual(['start', 'stop']);
  });

  it('close() drops idle keep-alive connections', async () => {
    const { api, events } = fakeApiServer();
    const { server } = await start(api);
    const agent = new Agent({ keepAlive: true, ca: tls.ca });
    const reply = await get(`${server.url}/readyz`, { agent });
    expect(reply.headers.connection).toBe('keep-alive');
    expect(reply.socket.destroyed).toBe(false);
    const socketClosed = once(reply.socket, 'close');

    await server.close();
    await socketClosed;
    expect(events.at(-1)).toBe('stop');
    agent.destroy();
  });

  it('close() does not wait for a connection that never finishes its TLS handshake, or never sends a request', async () => {
    const { api } = fakeApiServer();
    const server = await startServer({ apiServer: api, bindAddress: '127.0.0.1', securePort: 'ephemeral', tls, shutdownTimeoutMs: 300 });
    const { port } = new URL(server.url);
    // One raw TCP connection that says nothing (its handshake never starts), one TLS connection that sends no request.
    const silent = createConnection({ host: '127.0.0.1', port: Number(port) });
    await once(silent, 'connect');
    const quiet = tlsConnect({ host: '127.0.0.1', port: Number(port), ca: tls.ca, servername: 'localhost' });
    await once(quiet, 'secureConnect');
    const closed = [once(silent, 'close'), once(quiet, 'close')];
    // Before, close() waited for them until TLS's 120 s handshake limit: the test timed out.
    await server.close();
    await Promise.all(closed);
    expect(silent.destroyed && quiet.destroyed).toBe(true);
  });

  it('close() cuts open watches and lets other in-flight requests finish', async () => {
    const { api, events, slowStarted } = fakeApiServer();
    const { server } = await start(api);
    const agent = new Agent({ keepAlive: true, ca: tls.ca });

    const watch = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/pods?watch=true`, { agent }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(watch.statusCode).toBe(200);
    const watchError = new Promise<Error>((resolve) => watch.once('error', resolve));
    const [firstEvent] = await once(watch, 'data');
    expect(String(firstEvent)).toContain('ADDED');
    const watchClosed = new Promise((resolve) => watch.once('close', resolve));

    const slow = get(`${server.url}/slow`, { agent });
    await slowStarted;
    await server.close();
    await watchClosed;
    // The watch is cut, not completed: the client sees the connection end mid-stream.
    expect(await watchError).toMatchObject({ code: 'ECONNRESET' });
    await expect(slow).resolves.toMatchObject({ status: 200, body: 'done' });
    expect(events).toContain('watch cancelled');
    expect(events.at(-1)).toBe('stop');
    agent.destroy();
  });

  it('close() as kube shuts down: readyz fails during the delay while requests are served, then watches end cleanly', async () => {
    const { api, events } = fakeApiServer();
    let shuttingDown = false;
    let endWatch: () => void = () => {};
    const graceful: ServedApi = {
      ...api,
      async fetch(req) {
        const url = new URL(req.url);
        if (url.pathname === '/readyz' && shuttingDown) return new Response('[-]shutdown failed: reason withheld\nreadyz check failed\n', { status: 500 });
        if (url.searchParams.get('watch') === 'true') {
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"type":"ADDED","object":{}}\n'));
              endWatch = () => controller.close();
            },
          });
          return new Response(body, { headers: { 'content-type': 'application/json' } });
        }
        return api.fetch(req);
      },
      beginShutdown: () => {
        shuttingDown = true;
        events.push('begin shutdown');
      },
      endWatches: () => {
        events.push('end watches');
        endWatch();
      },
    };
    // The delay is long beside the two requests made in it, so a busy machine still makes them in time.
    const server = await startServer({ apiServer: graceful, bindAddress: '127.0.0.1', securePort: 'ephemeral', tls, shutdownDelayMs: 3_000 });
    running.push(server);
    const agent = new Agent({ keepAlive: true, ca: tls.ca });
    const watch = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/pods?watch=true`, { agent }, resolve);
      req.on('error', reject);
      req.end();
    });
    let watchError: Error | undefined;
    watch.on('error', (error) => (watchError = error));
    const watchEnded = once(watch, 'end');
    watch.resume();

    const closing = server.close();
    // During the delay: not ready, but still serving.
    const [readyz, slow] = await Promise.all([get(`${server.url}/readyz`, { ca: tls.ca }), get(`${server.url}/slow`, { ca: tls.ca })]);
    expect(readyz.status).toBe(500);
    expect(slow.body).toBe('done');
    expect(events).not.toContain('end watches');
    await closing;
    await watchEnded;
    expect(watchError).toBeUndefined();
    expect(events.filter((e) => ['begin shutdown', 'end watches', 'stop'].includes(e))).toEqual(['begin shutdown', 'end watches', 'stop']);
    agent.destroy();
  });

  it('--shutdown-send-retry-after: after the delay, new requests get 429 Retry-After until the in-flight ones finished', async () => {
    const api = createApiServer({ storage: createMemoryBackend(), plugins: [groupPlugin(core)] });
    // Told when the create reaches the ApiServer: from then on it is in flight, however busy the machine is.
    let arrived: () => void = () => {};
    const createArrived = new Promise<void>((resolve) => (arrived = resolve));
    const watched: ServedApi = {
      ...api,
      fetch: (request, env) => {
        if (request.method === 'POST') arrived();
        return api.fetch(request, env);
      },
    };
    const server = await startServer({ apiServer: watched, bindAddress: '127.0.0.1', securePort: 0, insecurePort: 'ephemeral', shutdownSendRetryAfter: true, shutdownTimeoutMs: 10_000 });
    running.push(server);
    // A create whose body is still on its way: in flight until the client sends the rest.
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } });
    const create = httpRequest(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } });
    const created = new Promise<IncomingMessage>((resolve, reject) => create.on('response', resolve).on('error', reject));
    create.write(body.slice(0, 10));
    await createArrived;

    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await get(`${server.url}/api/v1/namespaces`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect((await get(`${server.url}/readyz`)).status).toBe(500);
    expect(closed).toBe(false);

    create.end(body.slice(10));
    const response = await created;
    expect(response.statusCode).toBe(201);
    response.resume();
    await closing;
  });

  it('close() is idempotent', async () => {
    const { api, events } = fakeApiServer();
    const { server } = await start(api);
    await Promise.all([server.close(), server.close()]);
    await server.close();
    expect(events.filter((e) => e === 'stop')).toHaveLength(1);
  });
});

describe('closeOnSignals', () => {
  it('closes the server on SIGTERM and exits 0', async () => {
    const { api, events } = fakeApiServer();
    const { server } = await start(api);
    const logs: string[] = [];
    let exited: (code: number) => void = () => {};
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    const dispose = closeOnSignals(server, (line) => logs.push(line), exited);
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(await exitCode).toBe(0);
      expect(events.at(-1)).toBe('stop');
      expect(logs).toEqual(['received SIGTERM, shutting down']);
      await expect(get(`${server.url}/readyz`, { ca: tls.ca })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      dispose();
    }
  });
});

describe('startServer client certificates', () => {
  /** A fake ApiServer that records what the transport told it about each request's client certificate. */
  function recording() {
    const envs: FetchEnv[] = [];
    const api: ServedApi = {
      async start() {},
      async stop() {},
      async fetch(_req, env) {
        envs.push(env ?? {});
        return new Response('ok');
      },
    };
    return { api, envs };
  }
  const callWithCert = (url: string, cert: { cert: string; key: string }) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { ca: tls.ca, cert: cert.cert, key: cert.key, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });

  it('requestClientCertificates: hands the presented chain on unverified, never as a verified peerCertificate', async () => {
    const { ca } = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-serve-client-')) });
    const other = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-serve-client-')) });
    const { api, envs } = recording();
    const server = await startServer({ apiServer: api, bindAddress: '127.0.0.1', securePort: 'ephemeral', tls: { ...tls, requestClientCertificates: true } });
    running.push(server);
    expect(await callWithCert(`${server.url}/x`, other.admin)).toBe(200);
    expect(envs[0].peerCertificate).toBeUndefined();
    expect(envs[0].peerCertificateError).toBeUndefined();
    expect(envs[0].peerCertificateChain?.[0].subject).toContain('CN=kapi-admin');
    expect(envs[0].peerCertificateChain?.[0].checkIssued(new X509Certificate(ca))).toBe(false);
    expect(await get(`${server.url}/x`, { ca: tls.ca })).toMatchObject({ status: 200 });
    expect(envs[1].peerCertificateChain).toBeUndefined();
  });

  it('clientCa: verifies in TLS and passes the subject only', async () => {
    const client = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-serve-client-')) });
    const { api, envs } = recording();
    const server = await startServer({ apiServer: api, bindAddress: '127.0.0.1', securePort: 'ephemeral', tls: { ...tls, clientCa: client.ca } });
    running.push(server);
    expect(await callWithCert(`${server.url}/x`, client.admin)).toBe(200);
    expect(envs[0].peerCertificate?.subject.CN).toBe('kapi-admin');
    expect(envs[0].peerCertificateChain).toBeUndefined();
  });
});
