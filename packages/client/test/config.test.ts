import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, loadKubeconfig } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-client-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kubeconfig = (user: Record<string, unknown>, extra = '') => `
apiVersion: v1
kind: Config
current-context: main
contexts:
- name: main
  context: { cluster: c, user: u, namespace: shop }
- name: other
  context: { cluster: c, user: u }
clusters:
- name: c
  cluster:
    server: https://example.test:6443/
    certificate-authority: ca.pem
${extra}users:
- name: u
  user: ${JSON.stringify(user)}
`;

/** What the client sends: the Authorization header of one request. */
async function authorizationOf(config: ReturnType<typeof loadKubeconfig>): Promise<string | null> {
  let seen: string | null = null;
  const client = createClient({
    ...config,
    fetch: async (req) => {
      seen = req.headers.get('authorization');
      return new Response(JSON.stringify({ kind: 'NamespaceList', metadata: {}, items: [] }), { headers: { 'content-type': 'application/json' } });
    },
  });
  await client.resource({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }).list();
  return seen;
}

describe('loadKubeconfig', () => {
  it('reads the current context: server, namespace, files relative to the kubeconfig, inline data', () => {
    writeFileSync(join(dir, 'ca.pem'), 'CA-PEM');
    const path = join(dir, 'certs.yaml');
    writeFileSync(path, kubeconfig({ 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key': 'key.pem' }));
    writeFileSync(join(dir, 'key.pem'), 'KEY-PEM');
    const config = loadKubeconfig({ path });
    expect(config.server).toBe('https://example.test:6443/');
    expect(config.namespace).toBe('shop');
    expect(config.ca?.toString()).toBe('CA-PEM');
    expect(config.cert?.toString()).toBe('CERT');
    expect(config.key?.toString()).toBe('KEY-PEM');
    expect(loadKubeconfig({ path, context: 'other' }).namespace).toBe('default');
  });

  it('sends a token, a token file or basic credentials', async () => {
    const load = (user: Record<string, unknown>) => {
      const path = join(dir, 'user.yaml');
      writeFileSync(path, kubeconfig(user));
      return loadKubeconfig({ path });
    };
    expect(await authorizationOf(load({ token: 'abc' }))).toBe('Bearer abc');
    writeFileSync(join(dir, 'token'), 'from-file\n');
    // A relative tokenFile is read beside the kubeconfig.
    expect(await authorizationOf(load({ tokenFile: 'token' }))).toBe('Bearer from-file');
    expect(await authorizationOf(load({ username: 'ann', password: 'pw' }))).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    expect(await authorizationOf(load({}))).toBeNull();
  });

  it('refuses what it cannot do with a clear message: auth-provider plugins, missing contexts, clusters and servers', () => {
    expect(() => loadKubeconfig({ text: kubeconfig({ 'auth-provider': { name: 'oidc' } }) })).toThrow(/auth-provider plugin, which @kapi\/client does not run; use its exec plugin/);
    expect(() => loadKubeconfig({ text: kubeconfig({ token: 'x' }), context: 'nope' })).toThrow(/no context "nope"/);
    expect(() => loadKubeconfig({ text: 'apiVersion: v1\nkind: Config\n' })).toThrow(/no current-context/);
    expect(() => loadKubeconfig({ path: join(dir, 'missing.yaml') })).toThrow(/ENOENT/);
  });

  it('takes $KUBECONFIG when no path is given', () => {
    writeFileSync(join(dir, 'ca.pem'), 'CA-PEM');
    const path = join(dir, 'env.yaml');
    writeFileSync(path, kubeconfig({ token: 't' }));
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = path;
    try {
      expect(loadKubeconfig().token).toBe('t');
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  it('turns an answer that is not a Status into an ApiError with the code and body', async () => {
    const client = createClient({ server: 'https://x.test', fetch: async () => new Response('upstream broke', { status: 502 }) });
    const error = await client.resource({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true }).list().catch((e) => e);
    expect(error.code).toBe(502);
    expect(error.message).toBe('upstream broke');
    expect(error.status.kind).toBe('Status');
  });
});
