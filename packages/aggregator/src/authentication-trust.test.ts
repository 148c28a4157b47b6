import { readFileSync } from 'node:fs';
import { group as core } from '@kapi/api-core';
import { createApiServer, groupPlugin, tokenFileAuthenticator, type ApiServer, type GroupPlugin } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticationTrustData, publishAuthenticationTrust, type AuthenticationTrust } from './authentication-trust.js';

// Self-signed CAs made with openssl (valid until 2126), and one that ended in 2001.
const pem = (name: string) => readFileSync(new URL(`./testdata/${name}.pem`, import.meta.url), 'utf8');
const CA_A = pem('ca-a');
const CA_B = pem('ca-b');
const EXPIRED = pem('expired-ca');

const TRUST: AuthenticationTrust = {
  clientCaPem: CA_A,
  requestHeader: {
    caPem: CA_B,
    allowedNames: ['front-proxy-client'],
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  },
};

/** What kube-apiserver publishes for the same flags (json.Marshal of the lists; the CAs as PEM). */
const PUBLISHED = {
  'client-ca-file': CA_A,
  'requestheader-client-ca-file': CA_B,
  'requestheader-allowed-names': '["front-proxy-client"]',
  'requestheader-username-headers': '["X-Remote-User"]',
  'requestheader-uid-headers': '[]',
  'requestheader-group-headers': '["X-Remote-Group"]',
  'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
};

describe('authenticationTrustData', () => {
  it("publishes kube's keys, lists as JSON arrays", () => {
    expect(authenticationTrustData(undefined, TRUST)).toEqual(PUBLISHED);
  });

  it('publishes the client CA alone without a request-header CA', () => {
    expect(authenticationTrustData(undefined, { clientCaPem: CA_A })).toEqual({ 'client-ca-file': CA_A });
    expect(authenticationTrustData(undefined, {})).toEqual({});
  });

  it("adds to what other servers published, keeping theirs first, and drops expired CAs and what cannot be read", () => {
    const existing = {
      'client-ca-file': CA_B + EXPIRED,
      'requestheader-client-ca-file': CA_B,
      'requestheader-allowed-names': '["aggregator","front-proxy-client"]',
      'requestheader-username-headers': 'not json',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'unrelated-key': 'x',
    };
    expect(authenticationTrustData(existing, TRUST)).toEqual({
      ...PUBLISHED,
      'client-ca-file': CA_B + CA_A,
      'requestheader-allowed-names': '["aggregator","front-proxy-client"]',
    });
    expect(authenticationTrustData({ 'client-ca-file': 'garbage' }, { clientCaPem: CA_A })).toEqual({ 'client-ca-file': CA_A });
  });
});

describe('publishAuthenticationTrust', () => {
  const TOKENS = 'admin-token,admin,1,"system:masters"\n';
  const PATH = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
  let server: ApiServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function start(trust: AuthenticationTrust = TRUST): Promise<void> {
    const base = groupPlugin(core);
    const publishing: GroupPlugin = { ...base, install: (host) => publishAuthenticationTrust(host, trust, { resyncMs: 50 }) };
    server = createApiServer({ storage: createMemoryBackend(), plugins: [publishing], authenticators: [tokenFileAuthenticator(TOKENS)] });
    await server.start();
  }

  async function req(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: 'Bearer admin-token' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await server!.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: res.status, body: JSON.parse(await res.text()) };
  }

  async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (await probe()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`never: ${what}`);
  }

  it('creates the ConfigMap before the server is ready', async () => {
    await start();
    const res = await req('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(PUBLISHED);
  });

  it('recreates it when deleted and repairs it when edited', async () => {
    await start();
    expect((await req('DELETE', PATH)).status).toBe(200);
    await eventually(async () => (await req('GET', PATH)).status === 200, 'recreated');
    expect((await req('GET', PATH)).body.data).toEqual(PUBLISHED);

    const edited = (await req('GET', PATH)).body;
    edited.data = { 'requestheader-allowed-names': '["someone-else"]', 'client-ca-file': 'garbage' };
    expect((await req('PUT', PATH, edited)).status).toBe(200);
    await eventually(async () => (await req('GET', PATH)).body.data['requestheader-username-headers'] !== undefined, 'repaired');
    expect((await req('GET', PATH)).body.data).toEqual({ ...PUBLISHED, 'requestheader-allowed-names': '["someone-else","front-proxy-client"]' });
  });

  it('does not rewrite a ConfigMap that already publishes the trust', async () => {
    await start();
    const before = (await req('GET', PATH)).body.metadata.resourceVersion;
    await req('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } });
    // Several resyncs (every 50 ms here) and the change of another ConfigMap later, still the same object.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await req('GET', PATH)).body.metadata.resourceVersion).toBe(before);
  });

  it('refuses a CA that is no certificate', () => {
    const host = {} as Parameters<typeof publishAuthenticationTrust>[0];
    expect(() => publishAuthenticationTrust(host, { clientCaPem: 'nope' })).toThrow('data does not contain any valid RSA or ECDSA certificates');
  });
});
