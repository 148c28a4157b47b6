import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureClientCertificates, ensureSelfSignedCertificates, generateServingSecurity, loadServingCertificate, servingSecurityProblem } from '../src/tls.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'kapi-tls-'));
const mode = (file: string) => statSync(file).mode & 0o777;

interface PairFiles {
  ca: string;
  caKey: string;
  cert: string;
  key: string;
}

/** A CA and a certificate it issued were written to `dataDir` under these names, keys readable by the owner only. */
function expectFiles(files: PairFiles, dataDir: string, names: PairFiles): void {
  const at = (name: string) => join(dataDir, name);
  expect(files).toEqual({ ca: at(names.ca), caKey: at(names.caKey), cert: at(names.cert), key: at(names.key) });
  expect(mode(files.key)).toBe(0o600);
  expect(mode(files.caKey)).toBe(0o600);
}

/** Parses a CA and a certificate, asserting that the CA issued and signed it and that it is no CA itself. */
function issuedBy(caPem: string, certPem: string): X509Certificate {
  const ca = new X509Certificate(caPem);
  const cert = new X509Certificate(certPem);
  expect(ca.ca).toBe(true);
  expect(cert.ca).toBe(false);
  expect(cert.checkIssued(ca)).toBe(true);
  expect(cert.verify(ca.publicKey)).toBe(true);
  return cert;
}

describe('self-signed serving material', () => {
  it('is generated on first start: a CA and a serving certificate it signed, keys mode 0600', async () => {
    const dataDir = join(tempDir(), 'nested', '.kapi');
    const tls = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    expect(tls.created).toEqual({ ca: true, cert: true });
    expectFiles(tls.files, dataDir, { ca: 'ca.crt', caKey: 'ca.key', cert: 'apiserver.crt', key: 'apiserver.key' });
    expect(readFileSync(tls.files.ca, 'utf8')).toBe(tls.ca);
    expect(issuedBy(tls.ca, tls.cert).keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
  });

  it('covers 127.0.0.1, ::1, localhost and the bind address', async () => {
    const tls = await ensureSelfSignedCertificates({ dataDir: tempDir(), bindAddress: '192.0.2.10' });
    const cert = new X509Certificate(tls.cert);
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.subjectAltName).toContain('DNS:localhost');
    for (const ip of ['127.0.0.1', '::1', '192.0.2.10']) expect(cert.checkIP(ip)).toBe(ip);
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('kubernetes.default.svc')).toBe('kubernetes.default.svc');
  });

  it('is reused on later starts', async () => {
    const dataDir = tempDir();
    const first = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    const second = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    expect(second.created).toEqual({ ca: false, cert: false });
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
    expect(second.ca).toBe(first.ca);
  });

  it('reissues only the serving certificate, from the same CA, for a new bind address or a damaged file', async () => {
    const dataDir = tempDir();
    const first = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    const moved = await ensureSelfSignedCertificates({ dataDir, bindAddress: '198.51.100.7' });
    expect(moved.created).toEqual({ ca: false, cert: true });
    expect(moved.ca).toBe(first.ca);
    expect(new X509Certificate(moved.cert).checkIP('198.51.100.7')).toBe('198.51.100.7');
    expect(new X509Certificate(moved.cert).verify(new X509Certificate(first.ca).publicKey)).toBe(true);

    writeFileSync(moved.files.cert, 'not a certificate');
    const repaired = await ensureSelfSignedCertificates({ dataDir, bindAddress: '198.51.100.7' });
    expect(repaired.created).toEqual({ ca: false, cert: true });
    expect(repaired.ca).toBe(first.ca);
  });

  it('renews a serving certificate near its end', async () => {
    const dataDir = tempDir();
    await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    const later = new Date(Date.now() + 350 * 24 * 3600 * 1000);
    const renewed = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1', now: later });
    expect(renewed.created).toEqual({ ca: false, cert: true });
    expect(new Date(new X509Certificate(renewed.cert).validTo).getTime()).toBeGreaterThan(later.getTime());
  });

  it('loads user-supplied files and names the flag when one is missing', async () => {
    const dataDir = tempDir();
    const tls = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    await expect(loadServingCertificate(tls.files.cert, tls.files.key)).resolves.toEqual({ cert: tls.cert, key: tls.key });
    await expect(loadServingCertificate(join(dataDir, 'missing.crt'), tls.files.key)).rejects.toThrow(/--tls-cert-file/);
    await expect(loadServingCertificate(tls.files.key, tls.files.key)).rejects.toThrow(/unable to load server certificate/);
  });

  it('names the root of a certificate file that carries its chain as the CA, and none for a chain that does not link', async () => {
    const dataDir = tempDir();
    const tls = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    const chained = join(dataDir, 'chained.crt');
    writeFileSync(chained, tls.cert + tls.ca);
    expect((await loadServingCertificate(chained, tls.files.key)).ca).toBe(new X509Certificate(tls.ca).toString());
    // A leaf alone, or followed by a CA that did not sign it, names none.
    expect((await loadServingCertificate(tls.files.cert, tls.files.key)).ca).toBeUndefined();
    const other = await ensureSelfSignedCertificates({ dataDir: tempDir(), bindAddress: '127.0.0.1' });
    writeFileSync(chained, tls.cert + other.ca);
    expect((await loadServingCertificate(chained, tls.files.key)).ca).toBeUndefined();
    writeFileSync(chained, `${tls.cert}-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n`);
    expect((await loadServingCertificate(chained, tls.files.key)).ca).toBeUndefined();
  });
});

describe('generated client certificates', () => {
  it('a client CA and an admin certificate (CN kapi-admin, O system:masters, clientAuth) it signed; reused later', async () => {
    const { ensureClientCertificates } = await import('../src/tls.js');
    const dataDir = tempDir();
    const first = await ensureClientCertificates({ dataDir });
    expect(first.created).toEqual({ ca: true, cert: true });
    expectFiles(first.files, dataDir, { ca: 'client-ca.crt', caKey: 'client-ca.key', cert: 'admin.crt', key: 'admin.key' });
    const admin = issuedBy(first.ca, first.admin.cert);
    expect(admin.subject).toBe('CN=kapi-admin\nO=system:masters');
    expect(admin.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']); // clientAuth only

    const second = await ensureClientCertificates({ dataDir });
    expect(second.created).toEqual({ ca: false, cert: false });
    expect(second.admin).toEqual(first.admin);
    // A serving CA in the same dir is a different CA.
    const serving = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1' });
    expect(serving.ca).not.toBe(first.ca);
  });

  it('the admin certificate is reissued when the CA changed', async () => {
    const { ensureClientCertificates } = await import('../src/tls.js');
    const dataDir = tempDir();
    const first = await ensureClientCertificates({ dataDir });
    const other = await ensureClientCertificates({ dataDir: tempDir() });
    writeFileSync(join(dataDir, 'client-ca.crt'), other.ca);
    writeFileSync(join(dataDir, 'client-ca.key'), readFileSync(other.files.caKey));
    const again = await ensureClientCertificates({ dataDir });
    expect(again.created.cert).toBe(true);
    expect(again.admin.cert).not.toBe(first.admin.cert);
  });
});

describe('generated front-proxy certificates', () => {
  it('a front-proxy CA and a client certificate (CN front-proxy-client, clientAuth) it signed, keys 0600; reused later', async () => {
    const { ensureFrontProxyCertificates, ensureClientCertificates } = await import('../src/tls.js');
    const dataDir = tempDir();
    const first = await ensureFrontProxyCertificates({ dataDir });
    expect(first.created).toEqual({ ca: true, cert: true });
    expectFiles(first.files, dataDir, { ca: 'front-proxy-ca.crt', caKey: 'front-proxy-ca.key', cert: 'front-proxy-client.crt', key: 'front-proxy-client.key' });
    const client = issuedBy(first.ca, first.client.cert);
    expect(client.subject).toBe('CN=front-proxy-client');
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);

    const second = await ensureFrontProxyCertificates({ dataDir });
    expect(second.created).toEqual({ ca: false, cert: false });
    expect(second.client).toEqual(first.client);
    // The client CA in the same dir is another CA: a client certificate is no front proxy.
    expect((await ensureClientCertificates({ dataDir })).ca).not.toBe(first.ca);
  });
});

describe('serving material made in memory', () => {
  it('one CA signs the serving certificate (localhost, loopback) and the admin client certificate', async () => {
    const security = await generateServingSecurity();
    expect(security.clientCa).toBe(security.tls.ca);
    const serving = issuedBy(security.tls.ca!, security.tls.cert);
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serving.checkHost('localhost')).toBe('localhost');
    const admin = issuedBy(security.tls.ca!, security.adminCertificate.cert);
    expect(admin.subject).toBe('CN=kapi-admin\nO=system:masters');
    expect(admin.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it('is checked before it is used again: a mixed-up, expiring or damaged set has a problem', async () => {
    const security = await generateServingSecurity();
    const other = await generateServingSecurity();
    expect(servingSecurityProblem(security)).toBeUndefined();
    expect(servingSecurityProblem({ ...security, adminCertificate: other.adminCertificate })).toMatch(/admin certificate was not signed by the CA/);
    expect(servingSecurityProblem({ ...security, tls: { ...security.tls, key: other.tls.key } })).toMatch(/serving key does not match/);
    expect(servingSecurityProblem({ ...security, clientCa: other.clientCa })).toMatch(/client CA is not the serving CA/);
    expect(servingSecurityProblem({ ...security, tls: { ...security.tls, cert: 'garbage' } })).toBeDefined();
    expect(servingSecurityProblem(security, { now: new Date(Date.now() + 340 * 24 * 3600 * 1000) })).toMatch(/not valid for 30 more days/);
    expect(servingSecurityProblem(security, { bindAddress: '10.1.2.3' })).toMatch(/does not cover/);
    const notAdmin = await ensureClientCertificates({ dataDir: tempDir() });
    expect(servingSecurityProblem({ tls: { ...notAdmin.admin, ca: notAdmin.ca }, clientCa: notAdmin.ca, adminCertificate: notAdmin.admin })).toMatch(/serving certificate does not cover/);
  });
});
