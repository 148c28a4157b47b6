import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

export interface KeyPair {
  cert: Buffer;
  key: Buffer;
}

/** A test CA (made with openssl) that signs serving and client certificates. */
export interface TestCA extends KeyPair {
  /** The CA as an APIService caBundle (base64 PEM). */
  caBundle: string;
  /** A serving certificate for 127.0.0.1, localhost and `names`. */
  serving(names: string[]): KeyPair;
  /** A client certificate with common name `cn`. */
  client(cn: string): KeyPair;
}

export function makeCA(name: string): TestCA {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-aggregator-pki-'));
  const f = (n: string) => join(dir, n);
  const run = (args: string[]) => {
    const res = spawnSync('openssl', args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(res.stderr);
  };
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-keyout', f('ca.key'), '-out', f('ca.pem')]);
  let n = 0;
  const sign = (cn: string, ext: string): KeyPair => {
    const id = `c${n++}`;
    run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-keyout', f(`${id}.key`), '-out', f(`${id}.csr`)]);
    writeFileSync(f(`${id}.cnf`), ext);
    run(['x509', '-req', '-in', f(`${id}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', f(`${id}.cnf`), '-out', f(`${id}.pem`)]);
    return { cert: readFileSync(f(`${id}.pem`)), key: readFileSync(f(`${id}.key`)) };
  };
  const cert = readFileSync(f('ca.pem'));
  return {
    cert,
    key: readFileSync(f('ca.key')),
    caBundle: cert.toString('base64'),
    serving: (names) => sign('extension', `subjectAltName=${['IP:127.0.0.1', 'DNS:localhost', ...names.map((x) => `DNS:${x}`)].join(',')}\nextendedKeyUsage=serverAuth\n`),
    client: (cn) => sign(cn, 'extendedKeyUsage=clientAuth\n'),
  };
}
