import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { createCorePlugin } from '../plugin.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const TOKEN = '/api/v1/namespaces/default/serviceaccounts/default/token';

describe('a signing key still being made', () => {
  let server: ApiServer | undefined;
  afterEach(() => server?.stop());

  const start = async (signingKey: Promise<string>) => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin({ serviceAccountTokens: { issuers: [ISSUER], signingKey } })] });
    await server.start();
    return server;
  };
  const request = (s: ApiServer, method: string, path: string, body?: unknown) =>
    s.fetch(new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
  const tokenRequest = (s: ApiServer) => request(s, 'POST', TOKEN, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  /** The default ServiceAccount appears shortly after the namespace. */
  const serviceAccount = async (s: ApiServer) => {
    for (let i = 0; i < 100; i++) {
      if ((await request(s, 'GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no default ServiceAccount');
  };

  it('lets the server start; a token request waits for the key, and the token it gets verifies', async () => {
    let give!: (pem: string) => void;
    const s = await start(new Promise<string>((resolve) => (give = resolve)));
    await serviceAccount(s);
    let answered = false;
    const pending = Promise.resolve(tokenRequest(s)).then((res) => ((answered = true), res));
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    give(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const res = await pending;
    expect(res.status).toBe(201);
    const token = ((await res.json()) as { status: { token: string } }).status.token;
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
    // The server authenticates a request bearing it (a bad token would be a 401).
    const authenticated = await s.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps', { headers: { authorization: `Bearer ${token}` } }));
    expect(authenticated.status).toBe(200);
    const forged = await s.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps', { headers: { authorization: `Bearer ${token.slice(0, -4)}AAAA` } }));
    expect(forged.status).toBe(401);
  });

  it('answers token requests with a 500 Status when the key could not be made', async () => {
    const s = await start(Promise.reject(new Error('disk full')));
    await serviceAccount(s);
    const res = await tokenRequest(s);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ kind: 'Status', code: 500 });
  });
});
