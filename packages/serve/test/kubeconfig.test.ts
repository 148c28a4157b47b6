import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderKubeconfig, writeKubeconfig } from '../src/kubeconfig.js';
import { ensureSelfSignedCertificates } from '../src/tls.js';

describe('admin kubeconfig', () => {
  it('points cluster kapi at the HTTPS URL with the CA, user kapi-admin, current context kapi', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-kubeconfig-'));
    const tls = await ensureSelfSignedCertificates({ dataDir: dir, bindAddress: '127.0.0.1' });
    const path = join(dir, 'sub', 'admin.kubeconfig');
    await writeKubeconfig(path, { server: 'https://127.0.0.1:6443', caCertificate: tls.ca });
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/client certificate/i);
    const config = parse(text);
    expect(config).toMatchObject({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kapi', cluster: { server: 'https://127.0.0.1:6443' } }],
      users: [{ name: 'kapi-admin', user: { username: 'kapi-admin' } }],
      contexts: [{ name: 'kapi', context: { cluster: 'kapi', user: 'kapi-admin' } }],
      'current-context': 'kapi',
    });
    expect(Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(tls.ca);
  });

  it('carries the admin client certificate when there is one, instead of the bare username', async () => {
    const { ensureClientCertificates } = await import('../src/tls.js');
    const client = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-kubeconfig-')) });
    const config = parse(renderKubeconfig({ server: 'https://127.0.0.1:6443', caCertificate: 'CA', clientCertificate: client.admin }));
    expect(Object.keys(config.users[0].user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
    expect(Buffer.from(config.users[0].user['client-certificate-data'], 'base64').toString()).toBe(client.admin.cert);
    expect(Buffer.from(config.users[0].user['client-key-data'], 'base64').toString()).toBe(client.admin.key);
  });

  it('has no CA for plain HTTP', () => {
    const config = parse(renderKubeconfig({ server: 'http://127.0.0.1:8080' }));
    expect(config.clusters[0].cluster).toEqual({ server: 'http://127.0.0.1:8080' });
  });
});
