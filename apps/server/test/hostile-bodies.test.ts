// The built server (dist/main.js) driven over raw sockets. Request bodies read straight from the
// socket keep the body limit (413) and the request timeout (504) for every verb and subresource with a body, a
// pipelined or 100-continue request is served, consistent GETs see the client's own writes at once (they may come
// from the watch cache), and NamespaceLifecycle refuses creates in a namespace being deleted.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const NS = '/api/v1/namespaces/default';
const LIMIT = 10_000;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createTcpServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Writes `parts` on a fresh connection (pausing `pauseMs` between them) and reads until the server closes it. */
function raw(port: number, parts: (string | Buffer)[], pauseMs = 0, readMs = 15_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => socket.destroy(), readMs);
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.once('connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) return;
        socket.write(p);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1])).filter((s) => s !== 100);
const head = (method: string, path: string, headers: string[]) => `${method} ${path} HTTP/1.1\r\nHost: x\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;

describe('the built server over raw sockets: hostile bodies, pipelining, reading your own writes', () => {
  let child: ChildProcess;
  let port: number;
  const base = () => `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: unknown, contentType = 'application/json', accept = 'application/json') => {
    const res = await fetch(`${base()}${path}`, { method, headers: { 'content-type': contentType, accept }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    port = await freePort();
    child = spawn(
      process.execPath,
      [MAIN, '--data-dir', mkdtempSync(join(tmpdir(), 'kapi-adv17-')), '--secure-port', '0', '--insecure-port', String(port), '--bind-address', '127.0.0.1', '--authorization-mode=AlwaysAllow', '--storage-backend=memory', `--max-resource-write-bytes=${LIMIT}`, '--request-timeout=10s'],
      { stdio: 'ignore' },
    );
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base()}/readyz`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (i > 300) throw new Error('the server did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await call('POST', `${NS}/configmaps`, { metadata: { name: 'cm1' }, data: { a: 'orig' } })).status).toBe(201);
    expect((await call('POST', `${NS}/pods`, { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'i' }] } })).status).toBe(201);
    expect((await call('POST', '/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'd1' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } })).status).toBe(201);
  }, 60_000);
  afterAll(() => {
    child?.kill();
  });

  const pad = 'x'.repeat(2 * LIMIT);
  const bodies: [string, string, string, unknown][] = [
    ['PUT', `${NS}/configmaps/cm1`, 'application/json', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: pad } }],
    ['PATCH', `${NS}/configmaps/cm1`, 'application/merge-patch+json', { data: { a: pad } }],
    ['PATCH', `${NS}/configmaps/cm1`, 'application/strategic-merge-patch+json', { data: { a: pad } }],
    ['PATCH', `${NS}/configmaps/cm1`, 'application/json-patch+json', [{ op: 'add', path: '/data/a', value: pad }]],
    ['PATCH', `${NS}/configmaps/cm1?fieldManager=m&force=true`, 'application/apply-patch+yaml', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: pad } }],
    ['DELETE', `${NS}/configmaps/cm1`, 'application/json', { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: pad } }],
    ['DELETE', `${NS}/configmaps`, 'application/json', { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: pad } }],
    ['PATCH', `${NS}/pods/p1/status`, 'application/merge-patch+json', { status: { message: pad } }],
    ['PATCH', '/apis/apps/v1/namespaces/default/deployments/d1/scale', 'application/merge-patch+json', { metadata: { annotations: { a: pad } } }],
    ['POST', `${NS}/pods/p1/eviction`, 'application/json', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', annotations: { a: pad } } }],
  ];

  for (const [method, path, type, body] of bodies) {
    it(`answers a chunked ${method} ${path.split('/').slice(-2).join('/')} (${type}) past the limit 413 and changes nothing`, async () => {
      const text = JSON.stringify(body);
      const answer = await raw(port, [head(method, path, [`Content-Type: ${type}`, 'Transfer-Encoding: chunked', 'Connection: close']), chunk(text.slice(0, 4000)), chunk(text.slice(4000)), '0\r\n\r\n']);
      expect(statuses(answer)).toEqual([413]);
      expect(answer).toContain('"reason":"RequestEntityTooLarge"');
      expect((await call('GET', `${NS}/configmaps/cm1`)).json().data).toEqual({ a: 'orig' });
      expect((await call('GET', `${NS}/pods/p1`)).status).toBe(200);
    });

    it(`answers a ${method} ${path.split('/').slice(-2).join('/')} (${type}) whose body trickles past ?timeout= 504 and changes nothing`, async () => {
      const text = JSON.stringify(method === 'DELETE' ? { kind: 'DeleteOptions', apiVersion: 'v1' } : JSON.parse(JSON.stringify(body).replaceAll(pad, 'small')));
      const sep = path.includes('?') ? '&' : '?';
      const answer = await raw(port, [head(method, `${path}${sep}timeout=1s`, [`Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(text)}`, 'Connection: close']), text.slice(0, 5), text.slice(5, 10), text.slice(10)], 700);
      expect(statuses(answer)).toEqual([504]);
      await new Promise((r) => setTimeout(r, 300));
      expect((await call('GET', `${NS}/configmaps/cm1`)).json().data).toEqual({ a: 'orig' });
      expect((await call('GET', `${NS}/pods/p1`)).status).toBe(200);
    });
  }

  it('serves Expect: 100-continue, a pipelined POST then GET, and ignores a body on GET', async () => {
    const cm = JSON.stringify({ metadata: { name: 'expect' }, data: { a: 'b' } });
    const expect100 = await raw(port, [head('POST', `${NS}/configmaps`, ['Content-Type: application/json', `Content-Length: ${cm.length}`, 'Expect: 100-continue', 'Connection: close']), cm], 200);
    expect(expect100).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(statuses(expect100)).toEqual([201]);
    const a = JSON.stringify({ metadata: { name: 'pipe-a' } });
    const b = JSON.stringify({ metadata: { name: 'pipe-b' } });
    const pipelined = await raw(port, [
      head('POST', `${NS}/configmaps`, ['Content-Type: application/json', `Content-Length: ${a.length}`]) + a + head('POST', `${NS}/configmaps`, ['Content-Type: application/json', `Content-Length: ${b.length}`]) + b + head('GET', `${NS}/configmaps/cm1`, ['Connection: close']),
    ]);
    expect(statuses(pipelined)).toEqual([201, 201, 200]);
    const getWithBody = await raw(port, [head('GET', `${NS}/configmaps/cm1`, ['Content-Length: 50000', 'Connection: close']) + 'y'.repeat(50000)]);
    expect(statuses(getWithBody)).toEqual([200]);
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('shows every client its own writes at once, under concurrent writers, in every response form', async () => {
    const worker = async (w: number) => {
      const failures: string[] = [];
      for (let k = 0; k < 25; k++) {
        const name = `raw-${w}-${k}`;
        expect((await call('POST', `${NS}/configmaps`, { metadata: { name }, data: { v: '0' } })).status).toBe(201);
        if ((await call('GET', `${NS}/configmaps/${name}`)).status !== 200) failures.push(`${name} not found after create`);
        for (let v = 1; v <= 3; v++) {
          const written = await call('PATCH', `${NS}/configmaps/${name}`, { data: { v: String(v) } }, 'application/merge-patch+json');
          const rv = Number(written.json().metadata.resourceVersion);
          const plain = (await call('GET', `${NS}/configmaps/${name}`)).json();
          if (plain.data.v !== String(v) || Number(plain.metadata.resourceVersion) < rv) failures.push(`${name} stale JSON ${JSON.stringify(plain.data)}`);
          const pretty = JSON.parse((await call('GET', `${NS}/configmaps/${name}?pretty=true`)).text);
          if (pretty.data.v !== String(v)) failures.push(`${name} stale pretty`);
          const meta = (await call('GET', `${NS}/configmaps/${name}`, undefined, 'application/json', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1')).json();
          if (meta.kind !== 'PartialObjectMetadata' || Number(meta.metadata.resourceVersion) < rv) failures.push(`${name} stale metadata`);
          const yaml = (await call('GET', `${NS}/configmaps/${name}`, undefined, 'application/json', 'application/yaml')).text;
          if (!yaml.includes(`v: "${v}"`)) failures.push(`${name} stale YAML`);
        }
        expect((await call('DELETE', `${NS}/configmaps/${name}`)).status).toBe(200);
        if ((await call('GET', `${NS}/configmaps/${name}`)).status !== 404) failures.push(`${name} found after delete`);
      }
      return failures;
    };
    const failures = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))).flat();
    expect(failures).toEqual([]);
  }, 120_000);

  it('admits creates in a namespace created a moment ago and refuses them once it is being deleted', async () => {
    for (let i = 0; i < 20; i++) {
      const ns = `adv17-${i}`;
      expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
      expect((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'a' } })).status).toBe(201);
      expect((await call('DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      expect([403, 404]).toContain((await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'b' } })).status);
    }
  }, 60_000);
});
