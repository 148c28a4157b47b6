// The certificates a first start generates are made ahead in a worker thread (kapi-server's main.ts starts it before
// loading the server): nothing is written until the start asks for them, and what it gets is a valid chain.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureClientCertificates, ensureFrontProxyCertificates, ensureSelfSignedCertificates, prepareCertificates, startCertificateWorker } from '@kapi/serve/certificates';
import { certificateSets } from '../src/defaults.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'kapi-prepared-'));
const chains = (leaf: string, ca: string) => new X509Certificate(leaf).checkIssued(new X509Certificate(ca)) && new X509Certificate(leaf).verify(new X509Certificate(ca).publicKey);

describe('certificates prepared ahead', () => {
  it('writes nothing until asked; then the serving, admin and front-proxy certificates chain to their CAs and are reused', async () => {
    const dataDir = fresh();
    const sets = certificateSets({ dataDir, securePort: 6443, bindAddress: '127.0.0.1' });
    const worker = startCertificateWorker(sets);
    expect(worker).toBeDefined();
    const certificates = prepareCertificates(sets, worker);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Made in memory only: a start that fails now (a bad --plugin) leaves the data dir as it was.
    expect(readdirSync(dataDir)).toEqual([]);
    const serving = await ensureSelfSignedCertificates({ dataDir, bindAddress: '127.0.0.1', certificates });
    const client = await ensureClientCertificates({ dataDir, certificates });
    const proxy = await ensureFrontProxyCertificates({ dataDir, certificates });
    certificates.close();
    expect([serving.created, client.created, proxy.created]).toEqual([{ ca: true, cert: true }, { ca: true, cert: true }, { ca: true, cert: true }]);
    expect(chains(serving.cert, serving.ca)).toBe(true);
    expect(new X509Certificate(serving.cert).checkHost('kubernetes.default.svc')).toBe('kubernetes.default.svc');
    expect(new X509Certificate(serving.cert).checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(chains(client.admin.cert, client.ca)).toBe(true);
    expect(new X509Certificate(client.admin.cert).subject).toBe('CN=kapi-admin\nO=system:masters');
    expect(chains(proxy.client.cert, proxy.ca)).toBe(true);
    expect(new X509Certificate(proxy.client.cert).subject).toBe('CN=front-proxy-client');
    // Three different CAs, as kube keeps them.
    expect(new Set([serving.ca, client.ca, proxy.ca]).size).toBe(3);
    // A restart finds them all: no worker, nothing made.
    const again = certificateSets({ dataDir, securePort: 6443, bindAddress: '127.0.0.1' });
    expect(startCertificateWorker(again)).toBeUndefined();
    const reused = await ensureFrontProxyCertificates({ dataDir, certificates: prepareCertificates(again) });
    expect(reused.created).toEqual({ ca: false, cert: false });
    expect(reused.client).toEqual(proxy.client);
  });

  it('makes the certificates in this thread when the worker started ahead has ended', async () => {
    const dataDir = fresh();
    const sets = certificateSets({ dataDir, securePort: 0, bindAddress: '127.0.0.1' });
    const worker = startCertificateWorker(sets)!;
    await worker.worker.terminate();
    const proxy = await ensureFrontProxyCertificates({ dataDir, certificates: prepareCertificates(sets, worker) });
    expect(chains(proxy.client.cert, proxy.ca)).toBe(true);
  });

  it('starts no worker for what the flags do not call for: plain HTTP with a given proxy certificate needs none', () => {
    expect(startCertificateWorker(certificateSets({ dataDir: fresh(), securePort: 0, bindAddress: '127.0.0.1', proxyClientCertFile: '/given.crt' }))).toBeUndefined();
    const worker = startCertificateWorker(certificateSets({ dataDir: fresh(), securePort: 0, bindAddress: '127.0.0.1' }));
    expect(worker).toBeDefined();
    void worker!.worker.terminate();
  });
});
