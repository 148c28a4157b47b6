import { X509Certificate } from 'node:crypto';

/** The extended key usages a client certificate may carry (kube verifies with ExtKeyUsageClientAuth). */
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
/** How many intermediates a chain may have before the root (Go has no fixed limit; a bound keeps this cheap). */
const MAX_DEPTH = 8;

/** The certificates of a PEM bundle (a `client-ca-file`, a ConfigMap's CA data); an empty bundle is an error. */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return blocks.map((block) => new X509Certificate(block));
}

const validAt = (cert: X509Certificate, now: Date) => new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
const issued = (issuer: X509Certificate, cert: X509Certificate) => cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

/**
 * Verifies a client's certificate chain (leaf first, then the intermediates it sent) against trusted roots, as Go's
 * x509 Verify does for kube's client-certificate authenticators: every certificate within its validity period, each
 * signed by the next up to one of `roots`, intermediates being CAs, and the leaf usable for client authentication.
 * Returns the leaf; throws an Error saying why otherwise (Go's wording where it has one).
 */
export function verifyClientChain(chain: readonly X509Certificate[], roots: readonly X509Certificate[], now = new Date()): X509Certificate {
  const [leaf, ...intermediates] = chain;
  if (!leaf) throw new Error('no client certificate');
  if (!validAt(leaf, now)) throw new Error(`x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is outside ${leaf.validFrom} - ${leaf.validTo}`);
  const usages = leaf.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) {
    throw new Error('x509: certificate specifies an incompatible key usage');
  }
  let current = leaf;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    if (roots.some((root) => validAt(root, now) && issued(root, current))) return leaf;
    const next = intermediates.find((c) => c !== current && c.ca && validAt(c, now) && issued(c, current));
    if (!next) break;
    current = next;
  }
  throw new Error('x509: certificate signed by unknown authority');
}

/** The subject's CN and O values of a certificate (Go's pkix.Name CommonName and Organization). */
export function subjectOf(cert: X509Certificate): { cn?: string; o: string[] } {
  const o: string[] = [];
  let cn: string | undefined;
  for (const line of cert.subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    const value = unescapeDn(line.slice(eq + 1));
    if (key === 'CN' && cn === undefined) cn = value;
    else if (key === 'O') o.push(value);
  }
  return { cn, o };
}

// node escapes special characters of multi-valued subjects as in RFC 2253 (a leading `\`); a value it had to quote
// comes as a JSON string.
function unescapeDn(value: string): string {
  if (value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value;
    }
  }
  return value.replace(/\\(.)/g, '$1');
}
