// The test servers' certificates, made once and cached for later processes: what a user's test processes see.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INDEX, runTestProcess } from './test-process.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-testing-certs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fresh test process with `cacheDir` as KAPI_TESTING_CACHE_DIR: it starts a test server, lists namespaces with
 * kubectl through the server's kubeconfig, and stops it. Resolves with the kubeconfig's CA and kubectl's output.
 */
function testProcess(cacheDir: string): Promise<{ ca: string; kubectl: string }> {
  const script = `
    import { execFile } from 'node:child_process';
    import { readFileSync } from 'node:fs';
    const { startTestServer } = await import(${JSON.stringify(INDEX)});
    const server = await startTestServer();
    const kubectl = await new Promise((resolve) =>
      execFile('kubectl', ['--kubeconfig', server.kubeconfig, 'get', 'namespaces', '-o', 'name'], (error, stdout, stderr) => resolve(stdout + stderr)));
    process.stdout.write(JSON.stringify({ kubeconfig: readFileSync(server.kubeconfig, 'utf8'), kubectl }));
    await server.stop();`;
  return runTestProcess(script, cacheDir).then((out) => {
    const { kubeconfig, kubectl } = JSON.parse(out) as { kubeconfig: string; kubectl: string };
    const config = parse(kubeconfig) as { clusters: { cluster: { 'certificate-authority-data': string } }[] };
    return { ca: Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), kubectl };
  });
}

describe('test server certificates', () => {
  it('are made by the first process, cached without the CA key (owner only), and served by the next processes', { timeout: 60_000 }, async () => {
    const cacheDir = join(dir, 'cache');
    const first = await testProcess(cacheDir);
    expect(first.kubectl).toContain('namespace/default');
    const file = join(cacheDir, 'certificates.json');
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(cached.ca).toBe(first.ca);
    // Only the serving and admin keys are kept: neither is the CA's, so nothing more can be signed with the cache.
    const ca = new X509Certificate(cached.ca);
    expect(readFileSync(file, 'utf8').match(/BEGIN PRIVATE KEY/g)).toHaveLength(2);
    for (const key of [cached.key, cached.adminKey]) expect(ca.checkPrivateKey(createPrivateKey(key))).toBe(false);

    const second = await testProcess(cacheDir);
    expect(second.ca).toBe(first.ca);
    expect(second.kubectl).toContain('namespace/kube-system');
  });

  it('are made anew when the cache is damaged, readable by others or a link, and not cached at all with "off"', { timeout: 60_000 }, async () => {
    const cacheDir = join(dir, 'cache2');
    const file = join(cacheDir, 'certificates.json');
    const first = await testProcess(cacheDir);

    writeFileSync(file, '{"ca": "not a certificate"');
    const afterDamage = await testProcess(cacheDir);
    expect(afterDamage.ca).not.toBe(first.ca);
    expect(afterDamage.kubectl).toContain('namespace/default');
    expect(JSON.parse(readFileSync(file, 'utf8')).ca).toBe(afterDamage.ca);

    chmodSync(file, 0o644);
    const afterChmod = await testProcess(cacheDir);
    expect(afterChmod.ca).not.toBe(afterDamage.ca);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A link (someone else's file put in place) is not read.
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(file), { mode: 0o600 });
    rmSync(file);
    symlinkSync(elsewhere, file);
    const afterLink = await testProcess(cacheDir);
    expect(afterLink.ca).not.toBe(afterChmod.ca);
    expect(afterLink.kubectl).toContain('namespace/default');

    // Off: each process makes its own.
    const a = await testProcess('off');
    const b = await testProcess('off');
    expect(a.ca).not.toBe(b.ca);
    expect(b.kubectl).toContain('namespace/default');
  });
});
