import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pki, type Pem } from './pki.js';

// wardle-server as a process against a fake main server (HTTPS) that publishes the authentication ConfigMap and
// answers TokenReviews and SubjectAccessReviews. The real aggregation path is tested end to end elsewhere.

const dir = mkdtempSync(join(tmpdir(), 'wardle-e2e-'));
const certs = pki(dir);
const mainCa = certs.ca('main-ca');
const clientCa = certs.ca('client-ca');
const proxyCa = certs.ca('front-proxy-ca');
const mainServing = certs.serving(mainCa);
const wardleIdentity = certs.client(clientCa, '/CN=wardle/O=system:masters');
const frontProxy = certs.client(proxyCa, '/CN=front-proxy-client');
const otherProxy = certs.client(certs.ca('front-proxy-ca'), '/CN=front-proxy-client');
const carol = certs.client(clientCa, '/CN=carol/O=readers');

const tokens: Record<string, { username: string; groups: string[] }> = {
  'alice-token': { username: 'alice', groups: ['dev'] },
  'eve-token': { username: 'eve', groups: [] },
};
const reviews: { kind: string; spec: Record<string, unknown> }[] = [];

let main: Server;
let wardle: ChildProcess;
let wardleUrl = '';
let output = '';
let configMapMissing = false;
let kubeconfig = '';

function answerSar(spec: Record<string, unknown>) {
  if (spec.user === 'alice' || spec.user === 'carol') return { allowed: true, reason: 'test policy' };
  if (spec.user === 'eve') return { allowed: false, denied: true, reason: 'eve is banned' };
  return { allowed: false };
}

beforeAll(async () => {
  main = createServer({ cert: mainServing.cert, key: mainServing.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (req.method === 'GET' && req.url === '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' && !configMapMissing) {
        return answer(200, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system' },
          data: {
            'client-ca-file': clientCa.cert,
            'requestheader-client-ca-file': proxyCa.cert,
            'requestheader-allowed-names': '["front-proxy-client"]',
            'requestheader-username-headers': '["X-Remote-User"]',
            'requestheader-group-headers': '["X-Remote-Group"]',
            'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
          },
        });
      }
      if (req.method === 'POST' && req.url === '/apis/authentication.k8s.io/v1/tokenreviews') {
        reviews.push({ kind: 'TokenReview', spec: body.spec });
        const user = tokens[body.spec.token];
        return answer(201, { ...body, status: user ? { authenticated: true, user } : { authenticated: false, error: 'token not known' } });
      }
      if (req.method === 'POST' && req.url === '/apis/authorization.k8s.io/v1/subjectaccessreviews') {
        reviews.push({ kind: 'SubjectAccessReview', spec: body.spec });
        return answer(201, { ...body, status: answerSar(body.spec) });
      }
      answer(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => main.listen(0, '127.0.0.1', resolve));
  kubeconfig = join(dir, 'main.kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'main', cluster: { server: `https://127.0.0.1:${(main.address() as AddressInfo).port}`, 'certificate-authority': mainCa.file } }],
      users: [{ name: 'wardle', user: { 'client-certificate': wardleIdentity.certFile, 'client-key': wardleIdentity.keyFile } }],
      contexts: [{ name: 'main', context: { cluster: 'main', user: 'wardle' } }],
      'current-context': 'main',
    }),
  );
  const mainJs = join(import.meta.dirname, '../dist/main.js');
  wardle = spawn(process.execPath, [mainJs, '--secure-port=0', `--kubeconfig=${kubeconfig}`, '--storage-backend=memory', `--data-dir=${join(dir, 'data')}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  wardleUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (https:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    wardle.stdout!.on('data', onData);
    wardle.stderr!.on('data', onData);
    wardle.once('exit', (code) => reject(new Error(`wardle-server exited ${code}: ${output}`)));
  });
}, 60_000);

afterAll(async () => {
  if (wardle && wardle.exitCode === null) {
    const exited = new Promise((resolve) => wardle.once('exit', resolve));
    wardle.kill('SIGTERM');
    await exited;
  }
  await new Promise<void>((resolve) => main?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function call(path: string, options: { method?: string; headers?: Record<string, string | string[]>; cert?: Pem; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      new URL(path, wardleUrl),
      {
        method: options.method ?? 'GET',
        // the self-signed serving certificate, as the APIService's insecureSkipTLSVerify
        rejectUnauthorized: false,
        cert: options.cert?.cert,
        key: options.cert?.key,
        agent: false,
        headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: Record<string, unknown>;
          try {
            body = JSON.parse(text);
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const flunders = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
const asProxy = { 'X-Remote-User': 'alice', 'X-Remote-Group': ['dev', 'admins'], 'X-Remote-Extra-Scopes': 'wardle' };
const lastSar = () => reviews.filter((r) => r.kind === 'SubjectAccessReview').at(-1)?.spec;

describe('wardle-server with delegated authentication and authorization', () => {
  it('serves a request from the front proxy as the user of its X-Remote headers, authorized by a SubjectAccessReview', async () => {
    const created = await call(flunders, { method: 'POST', cert: frontProxy, headers: asProxy, body: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1' } } });
    expect(created.status).toBe(201);
    const list = await call(flunders, { cert: frontProxy, headers: asProxy });
    expect(list.status).toBe(200);
    expect((list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual(['f1']);
    expect(lastSar()).toEqual({
      user: 'alice',
      groups: ['dev', 'admins', 'system:authenticated'],
      extra: { scopes: ['wardle'] },
      resourceAttributes: { namespace: 'default', verb: 'list', group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders', subresource: '', name: '' },
    });
  });

  it('ignores X-Remote headers without the front-proxy certificate: the request is anonymous and refused', async () => {
    const forged = await call(flunders, { headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' } });
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe('flunders.wardle.example.com is forbidden: User "system:anonymous" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "default"');
    expect(lastSar()).toMatchObject({ user: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('refuses X-Remote headers with a front-proxy certificate of another CA (401)', async () => {
    const forged = await call(flunders, { cert: otherProxy, headers: asProxy });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('authenticates a client certificate of the main server client CA as its subject', async () => {
    const asCarol = await call(flunders, { cert: carol, headers: asProxy });
    expect(asCarol.status).toBe(200);
    expect(lastSar()).toMatchObject({ user: 'carol', groups: ['readers', 'system:authenticated'] });
  });

  it('checks bearer tokens with a TokenReview', async () => {
    const before = reviews.length;
    expect((await call(flunders, { headers: { authorization: 'Bearer alice-token' } })).status).toBe(200);
    expect(reviews.slice(before).map((r) => r.kind)).toEqual(['TokenReview', 'SubjectAccessReview']);
    expect(reviews[before].spec).toEqual({ token: 'alice-token' });
    expect(lastSar()).toMatchObject({ user: 'alice', groups: ['dev', 'system:authenticated'] });
    expect((await call(flunders, { headers: { authorization: 'Bearer nobody' } })).status).toBe(401);
  });

  it("answers a denied SubjectAccessReview 403 with kube's message and the main server's reason", async () => {
    const denied = await call(`${flunders}/f1`, { headers: { authorization: 'Bearer eve-token' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'flunders.wardle.example.com "f1" is forbidden: User "eve" cannot get resource "flunders" in API group "wardle.example.com" in the namespace "default": eve is banned',
    });
  });

  it('serves health without asking the main server, and discovery and OpenAPI to authorized users', async () => {
    const before = reviews.length;
    for (const path of ['/healthz', '/readyz', '/livez']) expect((await call(path)).status).toBe(200);
    expect(reviews.length).toBe(before);
    const groups = await call('/apis', { cert: frontProxy, headers: asProxy });
    expect(groups.status).toBe(200);
    expect((groups.body.groups as { name: string }[]).map((g) => g.name)).toEqual(['wardle.example.com']);
    expect((await call('/apis/wardle.example.com', { cert: frontProxy, headers: asProxy })).status).toBe(200);
    expect((await call('/openapi/v2', { cert: frontProxy, headers: asProxy })).status).toBe(200);
    expect((await call('/openapi/v3/apis/wardle.example.com/v1alpha1', { cert: frontProxy, headers: asProxy })).status).toBe(200);
    const table = await call(flunders, { cert: frontProxy, headers: { ...asProxy, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.body.kind).toBe('Table');
  });
});

describe('wardle-server start', () => {
  it('fails clearly when the main server does not publish the authentication ConfigMap', async () => {
    configMapMissing = true;
    try {
      const mainJs = join(import.meta.dirname, '../dist/main.js');
      const child = spawn(process.execPath, [mainJs, '--secure-port=0', `--kubeconfig=${kubeconfig}`, '--storage-backend=memory', `--data-dir=${join(dir, 'data2')}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(1);
      expect(stderr).toContain('Error: configmap kube-system/extension-apiserver-authentication not found');
    } finally {
      configMapMissing = false;
    }
  }, 30_000);
});
