import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * `--root-ca-file`, read as kube-controller-manager reads it: the file as it is, once it holds at least one
 * certificate and every certificate block in it parses (client-go's certutil.ParseCertsPEM). Fails with kube's words.
 */
export function readRootCaFile(path: string): string {
  const fail = (why: string) => new Error(`error parsing root-ca-file at ${path}: ${why}`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail(code === 'ENOENT' ? `open ${path}: no such file or directory` : (err as Error).message);
  }
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw fail('x509: malformed certificate');
    }
  }
  if (!blocks.length) throw fail('data does not contain any valid RSA or ECDSA certificates');
  return text;
}
