import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchAuthenticationConfig, parseAuthenticationConfig, watchAuthenticationConfig } from './authentication-config.js';
import { parseKubeconfig } from './kubeconfig.js';
import { makeCa, makeCert } from './pki.fixtures.js';
import { createRestClient, RestError, type RestClient } from './rest-client.js';

const serverCa = makeCa('main-ca');
const clientCa = makeCa('client-ca');
const proxyCa = makeCa('front-proxy-ca');
const serving = makeCert(serverCa, '/CN=localhost', { usage: 'serverAuth' });
const admin = makeCert(clientCa, '/CN=admin/O=system:masters');

const data = {
  'client-ca-file': clientCa.cert,
  'requestheader-client-ca-file': proxyCa.cert,
  'requestheader-allowed-names': '["front-proxy-client"]',
  'requestheader-username-headers': '["X-Remote-User"]',
  'requestheader-group-headers': '["X-Remote-Group"]',
  'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
};

describe('parseAuthenticationConfig', () => {
  it('reads the CAs and the JSON lists kube publishes', () => {
    const config = parseAuthenticationConfig(data);
    expect(config.clientCa?.map((c) => c.fingerprint256)).toEqual([clientCa.x509.fingerprint256]);
    expect(config.requestHeader).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'],
      uidHeaders: [],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    });
  });
  it('has no front proxy without its CA, and refuses malformed lists', () => {
    expect(parseAuthenticationConfig({ 'client-ca-file': clientCa.cert }).requestHeader).toBeUndefined();
    expect(() => parseAuthenticationConfig({ ...data, 'requestheader-allowed-names': 'front-proxy-client' })).toThrow(/requestheader-allowed-names/);
  });
});

describe('fetchAuthenticationConfig over HTTPS with a kubeconfig', () => {
  let server: Server;
  let url = '';
  let configMap: 'present' | 'missing' | 'forbidden' = 'present';
  const seen: { cn?: string; authorization?: string }[] = [];

  beforeAll(async () => {
    server = createServer({ cert: serving.cert, key: serving.key, ca: clientCa.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      seen.push({ cn: peer?.subject?.CN as string | undefined, authorization: req.headers.authorization });
      const answer = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url !== '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication') return answer(404, { kind: 'Status', message: 'not found' });
      if (configMap === 'missing') return answer(404, { kind: 'Status', code: 404, message: 'configmaps "extension-apiserver-authentication" not found' });
      if (configMap === 'forbidden') return answer(403, { kind: 'Status', code: 403, message: 'configmaps "extension-apiserver-authentication" is forbidden' });
      answer(200, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system' }, data });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const kubeconfig = (user: Record<string, string>, cluster: Record<string, unknown> = { 'certificate-authority-data': Buffer.from(serverCa.cert).toString('base64') }) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'main', cluster: { server: url, ...cluster } }],
      users: [{ name: 'me', user }],
      contexts: [{ name: 'main', context: { cluster: 'main', user: 'me' } }],
      'current-context': 'main',
    });

  it('reads the ConfigMap with the client certificate of the kubeconfig, verifying the server', async () => {
    const rest = parseKubeconfig(
      kubeconfig({ 'client-certificate-data': Buffer.from(admin.cert).toString('base64'), 'client-key-data': Buffer.from(admin.key).toString('base64') }),
    );
    const client = createRestClient(rest);
    const config = await fetchAuthenticationConfig(client);
    client.close();
    expect(config.requestHeader?.allowedNames).toEqual(['front-proxy-client']);
    expect(seen.at(-1)?.cn).toBe('admin');
  });

  it('sends the kubeconfig token, and refuses a server its CA did not sign unless told to skip verification', async () => {
    const withToken = createRestClient(parseKubeconfig(kubeconfig({ token: 'secret' })));
    await fetchAuthenticationConfig(withToken);
    withToken.close();
    expect(seen.at(-1)?.authorization).toBe('Bearer secret');
    const wrongCa = createRestClient(parseKubeconfig(kubeconfig({}, { 'certificate-authority-data': Buffer.from(clientCa.cert).toString('base64') })));
    await expect(fetchAuthenticationConfig(wrongCa)).rejects.toThrow(/unable to get configmap/);
    wrongCa.close();
    const insecure = createRestClient(parseKubeconfig(kubeconfig({}, { 'insecure-skip-tls-verify': true })));
    await expect(fetchAuthenticationConfig(insecure)).resolves.toBeDefined();
    insecure.close();
  });

  it('fails clearly when the ConfigMap is missing or may not be read', async () => {
    const client = createRestClient(parseKubeconfig(kubeconfig({ token: 't' })));
    configMap = 'missing';
    await expect(fetchAuthenticationConfig(client)).rejects.toThrow('configmap kube-system/extension-apiserver-authentication not found');
    configMap = 'forbidden';
    await expect(fetchAuthenticationConfig(client)).rejects.toThrow(/--role=extension-apiserver-authentication-reader/);
    configMap = 'present';
    client.close();
  });

  it('fails when the main server is unreachable', async () => {
    const client = createRestClient({ server: 'https://127.0.0.1:1', insecureSkipTLSVerify: true }, { timeoutMs: 2000 });
    await expect(fetchAuthenticationConfig(client)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('parseKubeconfig', () => {
  it('needs a current context with a cluster and a server', () => {
    expect(() => parseKubeconfig('apiVersion: v1\nkind: Config\n')).toThrow(/no current-context/);
    expect(() => parseKubeconfig('current-context: x\ncontexts: []\n')).toThrow(/context "x" not found/);
  });
});

describe('watchAuthenticationConfig', () => {
  it('follows a rotated CA at the next refresh, and keeps the last good configuration when a refresh fails', async () => {
    vi.useFakeTimers();
    try {
      let answer: () => unknown = () => ({ data });
      const client: RestClient = { get: async () => answer(), post: async () => ({}), close() {} };
      const errors: string[] = [];
      const source = await watchAuthenticationConfig(client, { refreshMs: 1000, onError: (err) => errors.push(err.message) });
      expect(source.current().clientCa?.[0].fingerprint256).toBe(clientCa.x509.fingerprint256);
      const rotated = makeCa('client-ca-2');
      answer = () => ({ data: { ...data, 'client-ca-file': rotated.cert } });
      await vi.advanceTimersByTimeAsync(1000);
      expect(source.current().clientCa?.[0].fingerprint256).toBe(rotated.x509.fingerprint256);
      answer = () => {
        throw new RestError('connection refused');
      };
      await vi.advanceTimersByTimeAsync(1000);
      expect(source.current().clientCa?.[0].fingerprint256).toBe(rotated.x509.fingerprint256);
      expect(errors).toEqual(['unable to get configmap/extension-apiserver-authentication in kube-system: connection refused']);
      source.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
