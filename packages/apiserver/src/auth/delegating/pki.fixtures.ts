// Test PKI: CAs and client certificates made with the openssl CLI, for the delegated authentication tests.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pem {
  cert: string;
  key: string;
  x509: X509Certificate;
}

const dir = mkdtempSync(join(tmpdir(), 'kapi-pki-'));
let serial = 0;

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

const read = (prefix: string): Pem => {
  const cert = readFileSync(`${prefix}.crt`, 'utf8');
  return { cert, key: readFileSync(`${prefix}.key`, 'utf8'), x509: new X509Certificate(cert) };
};

/** A self-signed CA. */
export function makeCa(cn: string): Pem {
  const prefix = join(dir, `ca-${++serial}`);
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${prefix}.key`, '-out', `${prefix}.crt`, '-days', '3650', '-subj', `/CN=${cn}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  return read(prefix);
}

/**
 * A certificate signed by `ca`: a client certificate by default; `subject` in openssl's `/CN=x/O=y` form; valid
 * for `days` (default 30: tests move the clock past it for an expired one); `isCa` an intermediate CA; `usage` its
 * extended key usage.
 */
export function makeCert(ca: Pem, subject: string, options: { days?: number; isCa?: boolean; usage?: string } = {}): Pem {
  const prefix = join(dir, `cert-${++serial}`);
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${prefix}.key`, '-out', `${prefix}.csr`, '-subj', subject]);
  writeFileSync(`${prefix}.ca.crt`, ca.cert);
  writeFileSync(`${prefix}.ca.key`, ca.key);
  const ext = options.isCa ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n' : `extendedKeyUsage=${options.usage ?? 'clientAuth'}\n`;
  writeFileSync(`${prefix}.ext`, ext);
  const days = String(options.days ?? 30);
  openssl(['x509', '-req', '-in', `${prefix}.csr`, '-CA', `${prefix}.ca.crt`, '-CAkey', `${prefix}.ca.key`, '-set_serial', String(1000 + serial), '-out', `${prefix}.crt`, '-extfile', `${prefix}.ext`, '-days', days]);
  return read(prefix);
}
