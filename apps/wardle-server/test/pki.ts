// Test PKI made with the openssl CLI: the main server's serving CA, its client CA and its front-proxy CA.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Pem {
  cert: string;
  key: string;
}

export function pki(dir: string) {
  let serial = 0;
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const read = (prefix: string): Pem => ({ cert: readFileSync(`${prefix}.crt`, 'utf8'), key: readFileSync(`${prefix}.key`, 'utf8') });
  const ca = (cn: string): Pem & { file: string } => {
    const prefix = join(dir, `ca-${++serial}`);
    openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${prefix}.key`, '-out', `${prefix}.crt`, '-days', '30', '-subj', `/CN=${cn}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
    return { ...read(prefix), file: `${prefix}.crt` };
  };
  const cert = (issuer: Pem, subject: string, ext: string): Pem & { certFile: string; keyFile: string } => {
    const prefix = join(dir, `cert-${++serial}`);
    openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${prefix}.key`, '-out', `${prefix}.csr`, '-subj', subject]);
    writeFileSync(`${prefix}.ca.crt`, issuer.cert);
    writeFileSync(`${prefix}.ca.key`, issuer.key);
    writeFileSync(`${prefix}.ext`, ext);
    openssl(['x509', '-req', '-in', `${prefix}.csr`, '-CA', `${prefix}.ca.crt`, '-CAkey', `${prefix}.ca.key`, '-set_serial', String(100 + serial), '-out', `${prefix}.crt`, '-extfile', `${prefix}.ext`, '-days', '30']);
    return { ...read(prefix), certFile: `${prefix}.crt`, keyFile: `${prefix}.key` };
  };
  return {
    ca,
    client: (issuer: Pem, subject: string) => cert(issuer, subject, 'extendedKeyUsage=clientAuth\n'),
    serving: (issuer: Pem) => cert(issuer, '/CN=localhost', 'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n'),
  };
}
