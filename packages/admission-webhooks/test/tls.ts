import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

/** A test CA and a server certificate it signs for 127.0.0.1, localhost and `names`, made with openssl. */
export interface TestPki {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** The CA as a webhook's caBundle (base64 PEM). */
  caBundle: string;
}

export function makePki(names: string[] = []): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-admission-pki-'));
  const run = (args: string[]) => {
    const res = spawnSync('openssl', args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(res.stderr);
  };
  const f = (n: string) => join(dir, n);
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=kapi-test-ca', '-keyout', f('ca.key'), '-out', f('ca.pem')]);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=webhook', '-keyout', f('tls.key'), '-out', f('tls.csr')]);
  const san = ['IP:127.0.0.1', 'DNS:localhost', ...names.map((n) => `DNS:${n}`)].join(',');
  writeFileSync(f('ext.cnf'), `subjectAltName=${san}\n`);
  run(['x509', '-req', '-in', f('tls.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', f('ext.cnf'), '-out', f('tls.pem')]);
  const ca = readFileSync(f('ca.pem'));
  return { ca, cert: readFileSync(f('tls.pem')), key: readFileSync(f('tls.key')), caBundle: ca.toString('base64') };
}
