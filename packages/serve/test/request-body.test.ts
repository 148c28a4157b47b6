// Request bodies over a real socket: the ApiServer reads them straight from Node's IncomingMessage (FetchEnv.requestBody),
// and the body limit, the request timeout and a client that goes away must behave exactly as on the Request path.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { group as core } from '@kapi/api-core';
import { createApiServer, groupPlugin, type RequestLimits } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { startServer, type RunningServer } from '../src/serve.js';

const CM = '/api/v1/namespaces/default/configmaps';
const running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function serve(limits: RequestLimits = {}) {
  const apiServer = createApiServer({ storage: createMemoryBackend(), plugins: [groupPlugin(core)], limits });
  const server = await startServer({ apiServer, bindAddress: '127.0.0.1', securePort: 0, insecurePort: 'ephemeral', log: () => {} });
  running.push(server);
  return server.url;
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * A POST whose body the test writes: `chunks` in order, `pauseMs` between them, then the end unless `hang`.
 * Without `length` the body is chunked (no Content-Length).
 */
function post(url: string, chunks: (string | Buffer)[], opts: { length?: number; pauseMs?: number; hang?: boolean; path?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (opts.length !== undefined) headers['content-length'] = String(opts.length);
    const req = httpRequest(`${url}${opts.path ?? CM}`, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} });
      });
    });
    req.on('error', reject);
    (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
      if (!opts.hang && !req.destroyed) req.end();
    })().catch(() => {});
  });
}

const get = async (url: string, path: string) => {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const configMap = (name: string, data: Record<string, string> = { a: '1' }) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('request bodies read from the socket', () => {
  it('creates from a body with Content-Length and from a chunked one', async () => {
    const url = await serve();
    const whole = configMap('whole');
    expect((await post(url, [whole], { length: Buffer.byteLength(whole) })).status).toBe(201);
    const parts = configMap('chunked', { text: 'ü'.repeat(5000) });
    const bytes = Buffer.from(parts);
    // Split inside a multi-byte character: the bytes are joined before they are decoded.
    const answer = await post(url, [bytes.subarray(0, 101), bytes.subarray(101, 5001), bytes.subarray(5001)], { pauseMs: 5 });
    expect(answer.status).toBe(201);
    expect((await get(url, `${CM}/chunked`)).body).toMatchObject({ data: { text: 'ü'.repeat(5000) } });
  });

  it('answers a chunked body past the limit 413 with Connection: close, stores nothing, and keeps serving', async () => {
    const url = await serve({ maxResourceWriteBytes: 1000 });
    const head = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"a":"';
    const answer = await post(url, [head, 'x'.repeat(600), 'x'.repeat(600), 'x'.repeat(600), '"}}'], { pauseMs: 5 });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413, message: 'Request entity too large: limit is 1000' });
    expect((await get(url, `${CM}/big`)).status).toBe(404);
    // A body announced larger than the limit is refused before it is read.
    expect((await post(url, ['{}'], { length: 5000, hang: true })).status).toBe(413);
    const small = configMap('small');
    expect((await post(url, [small], { length: small.length })).status).toBe(201);
  });

  it('answers 504 when the body is still coming at the deadline, and the late body writes nothing', async () => {
    const url = await serve();
    const body = configMap('late');
    const answer = await post(url, [body.slice(0, 20), body.slice(20)], { pauseMs: 600, path: `${CM}?timeout=200ms` });
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    await new Promise((r) => setTimeout(r, 700));
    expect((await get(url, `${CM}/late`)).status).toBe(404);
  });

  it('survives a client that goes away in the middle of its body', async () => {
    const url = await serve();
    const { port } = new URL(url);
    for (let i = 0; i < 5; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write(`POST ${CM} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"metadata":{"name":"gone"`);
      await new Promise((r) => setTimeout(r, 20));
      socket.destroy();
    }
    const chunkedGone = connect(Number(port), '127.0.0.1');
    await new Promise((r) => chunkedGone.once('connect', r));
    chunkedGone.write(`POST ${CM} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"met\r\n`);
    await new Promise((r) => setTimeout(r, 20));
    chunkedGone.destroy();
    expect((await get(url, `${CM}/gone`)).status).toBe(404);
    const after = configMap('after');
    expect((await post(url, [after], { length: after.length })).status).toBe(201);
  });
});
