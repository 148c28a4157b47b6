import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { group as core } from '@kapi/api-core';
import { alwaysDeny, createApiServer, groupPlugin, privilegedGroups, tokenFileAuthenticator, x509Authenticator } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import {
  ensureClientCertificates,
  ensureSelfSignedCertificates,
  generateServingSecurity,
  serveApiServer,
  servingSecurityProblem,
  type ServedApiServer,
} from '../src/index.js';

/** A real ApiServer: client certificates and a token file authenticate; only system:masters may do anything. */
function apiServer() {
  return createApiServer({
    storage: createMemoryBackend(),
    plugins: [groupPlugin(core)],
    authenticators: [x509Authenticator(), tokenFileAuthenticator('s3cret,alice,1001,"system:masters"\n')],
    authorizers: [privilegedGroups('system:masters'), alwaysDeny()],
    anonymousAuth: false,
  });
}

interface Credentials {
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
}

/** The cluster CA and the admin's client certificate, as any Kubernetes client reads them from the kubeconfig. */
function fromKubeconfig(file: string): Credentials & { server: string } {
  const config = parse(readFileSync(file, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return {
    server: config.clusters[0].cluster.server,
    ca: b64(config.clusters[0].cluster['certificate-authority-data']),
    cert: b64(config.users[0].user['client-certificate-data']),
    key: b64(config.users[0].user['client-key-data']),
  };
}

function get(url: string, credentials: Credentials): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = credentials.token ? { authorization: `Bearer ${credentials.token}` } : undefined;
    const req = request(url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let served: ServedApiServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('serveApiServer', () => {
  it('generates the CA, serving and admin certificates and a kubeconfig the admin authenticates with over HTTPS', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'kapi-serve-')), 'data');
    const reports: string[] = [];
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', log: (m) => reports.push(m) });

    expect(served.kubeconfig).toBe(join(dataDir, 'admin.kubeconfig'));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(served.kubeconfig!).mode & 0o777).toBe(0o600);
    expect(reports.some((r) => r.startsWith('generated self-signed CA'))).toBe(true);
    expect(reports.some((r) => r.startsWith('admin kubeconfig:'))).toBe(true);

    const admin = fromKubeconfig(served.kubeconfig!);
    expect(admin.server).toBe(served.urls.https);
    const listed = await get(`${admin.server}/api/v1/namespaces`, admin);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).kind).toBe('NamespaceList');
  });

  it('lets the ApiServer authenticate bearer tokens, and refuses a client certificate from another CA', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral' });
    const { ca } = fromKubeconfig(served.kubeconfig!);

    expect((await get(`${served.url}/api/v1/namespaces`, { ca, token: 's3cret' })).status).toBe(200);
    expect((await get(`${served.url}/api/v1/namespaces`, { ca, token: 'wrong' })).status).toBe(401);
    expect((await get(`${served.url}/api/v1/namespaces`, { ca })).status).toBe(401);

    const stranger = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-stranger-')) });
    expect((await get(`${served.url}/api/v1/namespaces`, { ca, ...stranger.admin })).status).toBe(401);
  });

  it('reuses the certificates of an earlier start, so kubeconfigs handed out stay valid', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral' });
    const first = fromKubeconfig(served.kubeconfig!);
    await served.close();

    const reports: string[] = [];
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', log: (m) => reports.push(m) });
    expect(reports.filter((r) => r.startsWith('generated'))).toEqual([]);
    expect((await get(`${served.url}/api/v1/namespaces`, first)).status).toBe(200);
  });

  it('serves given certificate files and a given client CA, and hands the factory what it needs', async () => {
    const own = mkdtempSync(join(tmpdir(), 'kapi-own-'));
    const serving = await ensureSelfSignedCertificates({ dataDir: own, bindAddress: '127.0.0.1' });
    const clients = await ensureClientCertificates({ dataDir: own });
    const clientCaFile = join(own, 'clients.crt');
    writeFileSync(clientCaFile, clients.ca);

    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    let seen: { clientCa?: string; admin?: unknown } = {};
    served = await serveApiServer({
      apiServer: (security) => {
        seen = { clientCa: security.clientCa, admin: security.adminCertificate };
        return apiServer();
      },
      dataDir,
      securePort: 'ephemeral',
      tlsCertFile: serving.files.cert,
      tlsPrivateKeyFile: serving.files.key,
      clientCaFile,
      kubeconfig: false,
    });
    expect(seen.clientCa).toBe(clients.ca);
    // Kapi holds no key of that CA, so it has no admin certificate to hand out, and wrote no kubeconfig.
    expect(seen.admin).toBeUndefined();
    expect(served.kubeconfig).toBeUndefined();
    expect((await get(`${served.url}/api/v1/namespaces`, { ca: serving.ca, ...clients.admin })).status).toBe(200);
  });

  it('writes the CA of given serving certificates into the kubeconfig: tlsCaFile, or the certificate itself when self-signed', async () => {
    const own = mkdtempSync(join(tmpdir(), 'kapi-own-'));
    const serving = await ensureSelfSignedCertificates({ dataDir: own, bindAddress: '127.0.0.1' });
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    const reports: string[] = [];
    served = await serveApiServer({
      apiServer: apiServer(),
      dataDir,
      securePort: 'ephemeral',
      tlsCertFile: serving.files.cert,
      tlsPrivateKeyFile: serving.files.key,
      tlsCaFile: serving.files.ca,
      log: (m) => reports.push(m),
    });
    const admin = fromKubeconfig(served.kubeconfig!);
    expect(admin.ca).toBe(serving.ca);
    expect((await get(`${admin.server}/api/v1/namespaces`, admin)).status).toBe(200);
    await served.close();

    // The CA alone as the serving certificate: self-signed, so it is its own CA.
    reports.length = 0;
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', tlsCertFile: serving.files.ca, tlsPrivateKeyFile: serving.files.caKey });
    expect(fromKubeconfig(served.kubeconfig!).ca).toBe(new X509Certificate(serving.ca).toString());
    await served.close();

    // The certificate followed by its chain, as --tls-cert-file allows: the root is the CA, and a client trusting only
    // it gets through.
    const chained = join(own, 'chained.crt');
    writeFileSync(chained, serving.cert + serving.ca);
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', tlsCertFile: chained, tlsPrivateKeyFile: serving.files.key });
    const viaChain = fromKubeconfig(served.kubeconfig!);
    expect(viaChain.ca).toBe(new X509Certificate(serving.ca).toString());
    expect((await get(`${viaChain.server}/api/v1/namespaces`, viaChain)).status).toBe(200);

    // A key that does not match the certificate is named as such.
    await served.close();
    served = undefined;
    await expect(serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', tlsCertFile: serving.files.cert, tlsPrivateKeyFile: serving.files.caKey })).rejects.toThrow(
      `unable to load server certificate ${serving.files.cert} / ${serving.files.caKey}: the private key does not match the certificate`,
    );
  });

  it('leaves every file of the data dir private, certificates included', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral' });
    for (const file of readdirSync(dataDir)) expect(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600);
  });

  it('refuses a certificate file without its key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    await expect(serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', tlsCertFile: join(dataDir, 'x.crt') })).rejects.toThrow(
      /both its certificate file and its private key file/,
    );
  });

  it('serves certificates given in memory: nothing generated or written but the kubeconfig, which authenticates', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-serve-'));
    const security = await generateServingSecurity();
    expect(servingSecurityProblem(security)).toBeUndefined();
    const reports: string[] = [];
    served = await serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', security, log: (m) => reports.push(m) });
    expect(readdirSync(dataDir)).toEqual(['admin.kubeconfig']);
    expect(reports.filter((r) => r.startsWith('generated'))).toEqual([]);
    const admin = fromKubeconfig(served.kubeconfig!);
    expect(admin.ca).toBe(security.tls!.ca);
    expect((await get(`${served.url}/api/v1/namespaces`, admin)).status).toBe(200);
    // One CA signs the serving and the admin certificate and is the client CA: another such set is a stranger.
    const stranger = await generateServingSecurity();
    expect((await get(`${served.url}/api/v1/namespaces`, { ca: admin.ca, ...stranger.adminCertificate })).status).toBe(401);
    await expect(serveApiServer({ apiServer: apiServer(), dataDir, securePort: 'ephemeral', security: { clientCa: security.clientCa } })).rejects.toThrow(/security needs tls/);
  });
});
