import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKapiApiServer } from '../src/apiserver.js';
import { parseFlags, type ServerConfig } from '../src/flags.js';
import { startServer, type RunningServer } from '@kapi/serve';
import { createClientCertificate, ensureClientCertificates, ensureSelfSignedCertificates, type ClientCertificates, type GeneratedCertificates } from '@kapi/serve';

// The secure port end to end, in process: TLS with the generated client CA, the admin client certificate, static
// tokens, anonymous access on or off, and the authorization modes.

const TOKENS = 'jane-token,jane,uid-jane,"dev,qa"\n';

interface Reply {
  status: number;
  body: any;
}

let serving: GeneratedCertificates;
let client: ClientCertificates;
let tokenFile: string;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-auth-'));
  serving = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
  client = await ensureClientCertificates({ dataDir });
  tokenFile = join(dataDir, 'tokens.csv');
  writeFileSync(tokenFile, TOKENS);
});

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function start(...flags: string[]): Promise<string> {
  const parsed = parseFlags(['--storage-backend=memory', `--token-auth-file=${tokenFile}`, ...flags]);
  if (parsed.help) throw new Error('help');
  const config: ServerConfig = parsed.config;
  const server = await startServer({
    apiServer: await createKapiApiServer(config, () => {}),
    bindAddress: '127.0.0.1',
    securePort: 'ephemeral',
    tls: { cert: serving.cert, key: serving.key, clientCa: client.ca },
  });
  running.push(server);
  return server.url;
}

function send(url: string, method: string, path: string, opts: { body?: unknown; token?: string; cert?: { cert: string; key: string } } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const req = request(`${url}${path}`, { method, headers, ca: serving.ca, cert: opts.cert?.cert, key: opts.cert?.key, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end(opts.body === undefined ? undefined : JSON.stringify(opts.body));
  });
}

const whoami = (url: string, opts: { token?: string; cert?: { cert: string; key: string } } = {}) =>
  send(url, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...opts, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });

describe('the secure port authenticates', () => {
  it('the admin client certificate as kapi-admin in system:masters', async () => {
    const url = await start();
    const res = await whoami(url, { cert: client.admin });
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo).toEqual({ username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('a --token-auth-file token', async () => {
    const url = await start();
    expect((await whoami(url, { token: 'jane-token' })).body.status.userInfo).toEqual({ username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] });
    const bad = await send(url, 'GET', '/api/v1/namespaces', { token: 'nope' });
    expect(bad).toEqual({ status: 401, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 } });
  });

  it('no credentials as anonymous, or 401 with --anonymous-auth=false', async () => {
    expect((await whoami(await start('--authorization-mode=AlwaysAllow'))).body.status.userInfo).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    const url = await start('--anonymous-auth=false');
    const res = await send(url, 'GET', '/api/v1/namespaces');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await send(url, 'GET', '/healthz')).status).toBe(401);
    expect((await send(url, 'GET', '/api/v1/namespaces', { cert: client.admin })).status).toBe(200);
  });

  it('a certificate from another CA is not trusted', async () => {
    const stranger = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-stranger-')) });
    const url = await start('--anonymous-auth=false');
    expect((await send(url, 'GET', '/api/v1/namespaces', { cert: stranger.admin })).status).toBe(401);
  });
});

describe('the secure port authorizes', () => {
  it('--authorization-mode=AlwaysDeny: 403 for everyone but system:masters', async () => {
    const url = await start('--authorization-mode=AlwaysDeny');
    const res = await send(url, 'GET', '/api/v1/namespaces', { token: 'jane-token' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.');
    expect((await send(url, 'GET', '/api/v1/namespaces', { cert: client.admin })).status).toBe(200);
  });

  it('--authorization-mode=RBAC: the bootstrap policy; a user certificate signed by the client CA', async () => {
    const url = await start('--authorization-mode=RBAC');
    const dev = await createClientCertificate({ cert: client.ca, key: readFileSync(client.files.caKey, 'utf8') }, 'dave', ['devs']);
    expect((await whoami(url, { cert: dev })).body.status.userInfo).toEqual({ username: 'dave', groups: ['devs', 'system:authenticated'] });
    const denied = await send(url, 'GET', '/api/v1/namespaces/default/configmaps', { cert: dev });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('configmaps is forbidden: User "dave" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect((await send(url, 'GET', '/version')).status).toBe(200);
    expect((await send(url, 'GET', '/api/v1/namespaces/default/configmaps', { cert: client.admin })).status).toBe(200);

    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'devs-view', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }],
    };
    expect((await send(url, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { cert: client.admin, body: binding })).status).toBe(201);
    expect((await send(url, 'GET', '/api/v1/namespaces/default/configmaps', { cert: dev })).status).toBe(200);
    expect((await send(url, 'GET', '/api/v1/namespaces/kube-system/configmaps', { cert: dev })).status).toBe(403);
  });

  it("--authorization-mode=RBAC: kube's aggregation roles exist; extension-apiserver-authentication-reader reads that ConfigMap only", async () => {
    const url = await start('--authorization-mode=RBAC');
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const reader = await send(url, 'GET', `${rbac}/namespaces/kube-system/roles/extension-apiserver-authentication-reader`, { cert: client.admin });
    expect(reader.status).toBe(200);
    expect(reader.body.rules).toEqual([{ apiGroups: [''], resourceNames: ['extension-apiserver-authentication'], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    const delegator = await send(url, 'GET', `${rbac}/clusterroles/system:auth-delegator`, { cert: client.admin });
    expect(delegator.body.rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    expect((await send(url, 'GET', `${rbac}/clusterroles/system:kube-aggregator`, { cert: client.admin })).status).toBe(200);

    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
    for (const name of ['extension-apiserver-authentication', 'other']) {
      expect((await send(url, 'POST', '/api/v1/namespaces/kube-system/configmaps', { cert: client.admin, body: cm(name) })).status).toBe(201);
    }
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'jane-auth-reader', namespace: 'kube-system' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
    };
    expect((await send(url, 'POST', `${rbac}/namespaces/kube-system/rolebindings`, { cert: client.admin, body: binding })).status).toBe(201);
    const path = (name: string) => `/api/v1/namespaces/kube-system/configmaps/${name}`;
    expect((await send(url, 'GET', path('extension-apiserver-authentication'), { token: 'jane-token' })).status).toBe(200);
    const other = await send(url, 'GET', path('other'), { token: 'jane-token' });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('configmaps "other" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "kube-system"');
    expect((await send(url, 'GET', '/api/v1/namespaces/kube-system/configmaps', { token: 'jane-token' })).status).toBe(403);
    expect((await send(url, 'PUT', path('extension-apiserver-authentication'), { token: 'jane-token', body: cm('extension-apiserver-authentication') })).status).toBe(403);
  });
});
