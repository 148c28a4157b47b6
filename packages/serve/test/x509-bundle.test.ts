// The build bundles the x509 library into dist/x509.cjs (tsup.x509.config.ts), which the built package makes its
// certificates with: one file for the certificate worker of a first start to load instead of the library's 200-odd.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

/** In a process of its own: a CA and a serving certificate made by the built package, and which x509 files it loaded. */
const SCRIPT = `
import { createRequire } from 'node:module';
const { localCertificates } = await import(${JSON.stringify(`${dist}certificates.js`)});
const now = new Date();
const ca = await localCertificates.createCa(now);
const serving = await localCertificates.createServingCertificate(ca, { ips: ['127.0.0.1'], dns: ['localhost'] }, now);
const loaded = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify({
  ca: ca.cert, serving: serving.cert,
  bundle: loaded.filter((f) => f.endsWith('x509.cjs')).length,
  libraryFiles: loaded.filter((f) => /node_modules[\\\\/]@peculiar[\\\\/]/.test(f)).length,
}));
`;

describe('the bundled x509 library', () => {
  it('is built', () => {
    expect(existsSync(`${dist}x509.cjs`)).toBe(true);
  });

  it("makes the built package's certificates, loading none of the library's own files", () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out).toMatchObject({ bundle: 1, libraryFiles: 0 });
    const ca = new X509Certificate(out.ca as string);
    const serving = new X509Certificate(out.serving as string);
    expect(ca.ca).toBe(true);
    expect(serving.checkIssued(ca) && serving.verify(ca.publicKey)).toBe(true);
    expect(serving.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
  });
});
