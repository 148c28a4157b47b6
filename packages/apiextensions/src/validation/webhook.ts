// A webhook's CA bundle as client-go reads it (k8s.io/apiserver/pkg/util/webhook).
import { X509Certificate } from 'node:crypto';
// The URL and Service rules are shared: validateWebhookURL and validateWebhookService in @kapi/apimachinery.

const PEM_BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/;

/**
 * Why a CA bundle (base64 of PEM) gives no root certificates, as client-go's TLS config answers
 * (`unable to load root certificates: ...`), or undefined when it holds at least one certificate.
 */
export function caBundleError(caBundle: string): string | undefined {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  if (pem.length === 0) return undefined;
  const blocks: { type: string; headers: boolean; der: Buffer }[] = [];
  let rest = pem;
  for (let m = PEM_BLOCK.exec(rest); m; rest = rest.slice(m.index + m[0].length), m = PEM_BLOCK.exec(rest)) {
    const body = m[2];
    blocks.push({ type: m[1], headers: /^[^\r\n]*:/m.test(body), der: Buffer.from(body.replace(/^[^\r\n]*:.*$/gm, ''), 'base64') });
  }
  const parses = (der: Buffer): boolean => {
    try {
      new X509Certificate(der);
      return true;
    } catch {
      return false;
    }
  };
  if (blocks.some((b) => b.type === 'CERTIFICATE' && !b.headers && parses(b.der))) return undefined;
  let reason = 'no valid certificate authority data seen';
  if (blocks.length === 0) reason = 'unable to parse bytes as PEM block';
  else {
    const bad = blocks.find((b) => b.type === 'CERTIFICATE' && !b.headers && !parses(b.der));
    if (bad) reason = 'failed to parse certificate: x509: malformed certificate';
  }
  return `unable to load root certificates: ${reason}`;
}
