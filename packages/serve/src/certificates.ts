// Making certificates: a CA, and serving and client certificates it signs (ECDSA P-256), with @peculiar/x509.
import { KeyObject, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';

/** A certificate and its private key, PEM. */
export interface Pair {
  cert: string;
  key: string;
}

/** The names a serving certificate covers. */
export interface CertificateNames {
  ips: string[];
  dns: string[];
}

/**
 * What makes certificates: in this thread ({@link localCertificates}), or in a worker thread that loaded the x509
 * library while the process was busy loading the rest (prepareCertificates).
 */
export interface CertificateMaker {
  createCa(now: Date, name?: string): Promise<Pair>;
  createClientCertificate(ca: Pair, user: string, groups: string[], now?: Date): Promise<Pair>;
  createServingCertificate(ca: Pair, names: CertificateNames, now: Date): Promise<Pair>;
  /** Whether certificates asked for are still being made elsewhere (a worker thread), so that asking now would wait. */
  busy?(): boolean;
}

type X509 = typeof import('@peculiar/x509');

let x509Library: Promise<X509> | undefined;
const nodeRequire = createRequire(import.meta.url);

/**
 * @peculiar/x509, loaded when a certificate is first made: a start that reuses the data dir's certificates (or serves
 * no TLS) need not pay for it. It resolves its services through tsyringe, which needs the Reflect metadata API loaded
 * first. Required, not imported: importing CommonJS from an ES module has Node scan its source for the names it
 * exports.
 */
export function loadX509(): Promise<X509> {
  return (x509Library ??= (async () => {
    const x509 = requireX509();
    x509.cryptoProvider.set(webcrypto as ReturnType<typeof x509.cryptoProvider.get>);
    return x509;
  })());
}

/**
 * The library as the build bundled it beside this code (dist/x509.cjs, one file: about 40 ms to load rather than
 * 95-140 ms for its 200-odd files), or its packages where there is no bundle (running from source).
 */
function requireX509(): X509 {
  try {
    return nodeRequire('./x509.cjs') as X509;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
  }
  nodeRequire('reflect-metadata');
  return nodeRequire('@peculiar/x509') as X509;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 24 * 60 * 60 * 1000;
const CA_LIFETIME = 10 * 365 * DAY;
const CERT_LIFETIME = 365 * DAY;

/** A client certificate (clientAuth) for `user` in `groups` (the subject's O values), signed by `ca`. */
export async function createClientCertificate(ca: Pair, user: string, groups: string[], now = new Date()): Promise<Pair> {
  const x509 = await loadX509();
  const name = [`CN=${escapeRdn(user)}`, ...groups.map((g) => `O=${escapeRdn(g)}`)].join(', ');
  return issue(ca, name, now, async () => [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])]);
}

/**
 * A leaf certificate for `subject`, signed by `ca` (a new key, valid a year or as long as the CA): not a CA, for
 * digital signatures, with the extensions `more` gives for its key.
 */
async function issue(ca: Pair, subject: string, now: Date, more: (publicKey: webcrypto.CryptoKey) => Promise<import('@peculiar/x509').Extension[]>): Promise<Pair> {
  const x509 = await loadX509();
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importSigningKey(ca.key);
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: caCert.subject,
    notBefore: backdated(now),
    notAfter: new Date(Math.min(now.getTime() + CERT_LIFETIME, caCert.notAfter.getTime())),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(await more(keys.publicKey)),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: privateKeyPem(keys.privateKey) };
}

/** RFC 4514 escaping of an attribute value. */
function escapeRdn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1').replace(/^([ #])/, '\\$1').replace(/ $/, '\\ ');
}

function importSigningKey(pem: string): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' }), ALGORITHM, false, ['sign']);
}

export async function createCa(now: Date, name = 'CN=kapi-ca'): Promise<Pair> {
  const x509 = await loadX509();
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name,
    notBefore: backdated(now),
    notAfter: new Date(now.getTime() + CA_LIFETIME),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: privateKeyPem(keys.privateKey) };
}

export async function createServingCertificate(ca: Pair, names: CertificateNames, now: Date): Promise<Pair> {
  const x509 = await loadX509();
  return issue(ca, 'CN=kapi-apiserver', now, async (publicKey) => [
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension([
      ...names.dns.map((value) => ({ type: 'dns' as const, value })),
      ...names.ips.map((value) => ({ type: 'ip' as const, value })),
    ]),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ]);
}

function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

function privateKeyPem(key: webcrypto.CryptoKey): string {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** A positive 128-bit serial (RFC 5280 §4.1.2.2), as hex. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  bytes[0] |= 0x01;
  return bytes.toString('hex');
}

/** Tolerates clocks a little behind ours. */
function backdated(now: Date): Date {
  return new Date(now.getTime() - 60 * 60 * 1000);
}

/** Certificates made in this thread. */
export const localCertificates: CertificateMaker = { createCa, createClientCertificate, createServingCertificate };

/** The certificate a set's CA signs: a client's (user, groups) or the server's (names). */
export type LeafRequest = { client: { user: string; groups: string[] } } | { serving: CertificateNames };

/** A CA and the certificate it signs. */
export interface CertificateSet {
  ca: Pair;
  leaf: Pair;
}

/** A CA named `caName` and the certificate `leaf` asks for, signed by it: one call, so a worker makes both at once. */
export async function createCertificateSet(now: Date, caName: string | undefined, leaf: LeafRequest): Promise<CertificateSet> {
  const ca = await createCa(now, caName);
  const made = 'client' in leaf ? await createClientCertificate(ca, leaf.client.user, leaf.client.groups, now) : await createServingCertificate(ca, leaf.serving, now);
  return { ca, leaf: made };
}

/** Everything the certificate worker does, by name (the local fallback runs the same). */
export const certificateOps = { ...localCertificates, createCertificateSet };
export type CertificateOp = keyof typeof certificateOps;
