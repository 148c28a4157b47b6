import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isIP } from 'node:net';
import type { ServingSecurity } from './serve-api-server.js';
import { localCertificates, type CertificateMaker, type Pair } from './certificates.js';

export type { Pair } from './certificates.js';



/** PEM-encoded serving material, as node:https wants it. */
export interface ServingCertificate {
  /** The serving certificate (chain), PEM. */
  cert: string;
  /** Its private key, PEM. */
  key: string;
  /** The CA clients should trust to reach the server, PEM; unknown for user-supplied certificates. */
  ca?: string;
}

export interface GeneratedCertificates extends ServingCertificate {
  ca: string;
  files: { ca: string; caKey: string; cert: string; key: string };
  /** What this call created (false: reused from the data dir). */
  created: { ca: boolean; cert: boolean };
}

export const TLS_FILES = { ca: 'ca.crt', caKey: 'ca.key', cert: 'apiserver.crt', key: 'apiserver.key' } as const;

/** The client CA and the admin's client certificate generated when no `--client-ca-file` is given. */
export const CLIENT_CERT_FILES = { ca: 'client-ca.crt', caKey: 'client-ca.key', cert: 'admin.crt', key: 'admin.key' } as const;

/** The admin's client certificate identity: user kapi-admin in system:masters (cluster-admin under RBAC). */
export const ADMIN_SUBJECT = { user: 'kapi-admin', groups: ['system:masters'] } as const;

export interface ClientCertificates {
  /** The client CA (PEM) the secure port verifies client certificates against. */
  ca: string;
  /** The admin's client certificate and key, PEM. */
  admin: { cert: string; key: string };
  files: { ca: string; caKey: string; cert: string; key: string };
  /** What this call created (false: reused from the data dir). */
  created: { ca: boolean; cert: boolean };
}

const DAY = 24 * 60 * 60 * 1000;
/** The DNS names kube-apiserver's self-signed serving certificate covers. */
export const KUBERNETES_NAMES = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc'];

/** A certificate closer than this to its end is replaced at start. */
const RENEW_BEFORE = 30 * DAY;

/**
 * The names a serving certificate must cover: `names` (kube-apiserver's by default), localhost, the bind address and
 * the host name.
 */
export function servingNames(bindAddress: string, names: readonly string[] = KUBERNETES_NAMES): { ips: string[]; dns: string[] } {
  const ips = ['127.0.0.1', '::1'];
  if (isIP(bindAddress) && bindAddress !== '0.0.0.0' && bindAddress !== '::' && !ips.includes(bindAddress)) ips.push(bindAddress);
  const dns = ['localhost', ...names.filter((n) => n !== 'localhost')];
  const host = hostname().toLowerCase();
  if (/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(host) && !dns.includes(host)) dns.push(host);
  return { ips, dns };
}

/** The `names` of a generated serving certificate asked to cover `extra` names besides kube's; undefined: kube's alone. */
export const withKubernetesNames = (extra?: readonly string[]) => extra && [...KUBERNETES_NAMES, ...extra];

/**
 * Returns the self-signed serving material in `dataDir`, generating what is missing: a CA (`ca.crt`, `ca.key`)
 * on first start, and a serving certificate (`apiserver.crt`, `apiserver.key`) signed by it. Later starts reuse
 * both; the serving certificate alone is reissued (by the same CA, so kubeconfigs stay valid) when it no longer
 * covers the bind address or nears its end. Keys are written with mode 0600.
 */
export async function ensureSelfSignedCertificates(options: { dataDir: string; bindAddress: string; names?: readonly string[]; now?: Date; certificates?: CertificateMaker }): Promise<GeneratedCertificates> {
  const now = options.now ?? new Date();
  const make = options.certificates ?? localCertificates;
  const files = {
    ca: join(options.dataDir, TLS_FILES.ca),
    caKey: join(options.dataDir, TLS_FILES.caKey),
    cert: join(options.dataDir, TLS_FILES.cert),
    key: join(options.dataDir, TLS_FILES.key),
  };
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });

  let ca = await readPair(files.ca, files.caKey);
  const createdCa = !ca || !usable(ca.cert, now);
  if (createdCa) {
    ca = await make.createCa(now);
    await writeSecret(files.caKey, ca.key);
    await writePublic(files.ca, ca.cert);
  }
  const caPem = ca!.cert;
  const caCert = new X509Certificate(caPem);

  const names = servingNames(options.bindAddress, options.names);
  let serving = createdCa ? undefined : await readPair(files.cert, files.key);
  const reuse =
    serving !== undefined &&
    usable(serving.cert, now) &&
    new X509Certificate(serving.cert).checkIssued(caCert) &&
    new X509Certificate(serving.cert).verify(caCert.publicKey) &&
    covers(serving.cert, names);
  if (!reuse) {
    serving = await make.createServingCertificate(ca!, names, now);
    await writeSecret(files.key, serving.key);
    await writePublic(files.cert, serving.cert);
  }
  return { cert: serving!.cert, key: serving!.key, ca: caPem, files, created: { ca: createdCa, cert: !reuse } };
}

/**
 * Returns the client-certificate material in `dataDir`, generating what is missing: a client CA (`client-ca.crt`,
 * `client-ca.key`) on first start and an admin client certificate (`admin.crt`, `admin.key`: CN kapi-admin,
 * O system:masters, clientAuth) signed by it. Later starts reuse both; the admin certificate is reissued when it
 * nears its end or no longer chains to the CA. Keys are written with mode 0600.
 */
export async function ensureClientCertificates(options: { dataDir: string; now?: Date; certificates?: CertificateMaker }): Promise<ClientCertificates> {
  const { ca, client, files, created } = await ensureSignedClient({
    dataDir: options.dataDir,
    names: CLIENT_CERT_FILES,
    caName: CLIENT_CA_NAME,
    user: ADMIN_SUBJECT.user,
    groups: [...ADMIN_SUBJECT.groups],
    now: options.now,
    certificates: options.certificates,
  });
  return { ca, admin: client, files, created };
}

/**
 * The front-proxy CA and the client certificate kapi-server presents to aggregated API servers, generated when no
 * `--proxy-client-cert-file` is given (kubeadm's file names).
 */
export const FRONT_PROXY_FILES = { ca: 'front-proxy-ca.crt', caKey: 'front-proxy-ca.key', cert: 'front-proxy-client.crt', key: 'front-proxy-client.key' } as const;

/** The subjects of the generated client CA and front-proxy CA. */
export const CLIENT_CA_NAME = 'CN=kapi-client-ca';
export const FRONT_PROXY_CA_NAME = 'CN=kapi-front-proxy-ca';

/** The common name of the generated front-proxy client certificate, which `--requestheader-allowed-names` then lists. */
export const FRONT_PROXY_CLIENT = 'front-proxy-client';

export interface FrontProxyCertificates {
  /** The front-proxy CA (PEM): what aggregated servers verify the proxy's client certificate against. */
  ca: string;
  /** The proxy's client certificate (CN front-proxy-client) and key, PEM. */
  client: Pair;
  files: { ca: string; caKey: string; cert: string; key: string };
  /** What this call created (false: reused from the data dir). */
  created: { ca: boolean; cert: boolean };
}

/**
 * Returns the front-proxy material in `dataDir`, generating what is missing: a front-proxy CA (`front-proxy-ca.crt`,
 * `front-proxy-ca.key`), separate from the client CA as kube's, on first start and a client certificate
 * (`front-proxy-client.crt`, `front-proxy-client.key`: CN front-proxy-client, clientAuth) signed by it. Later starts
 * reuse both; the client certificate is reissued when it nears its end or no longer chains to the CA. Keys are
 * written with mode 0600.
 */
export async function ensureFrontProxyCertificates(options: { dataDir: string; now?: Date; certificates?: CertificateMaker }): Promise<FrontProxyCertificates> {
  return ensureSignedClient({
    dataDir: options.dataDir,
    names: FRONT_PROXY_FILES,
    caName: FRONT_PROXY_CA_NAME,
    user: FRONT_PROXY_CLIENT,
    groups: [],
    now: options.now,
    certificates: options.certificates,
  });
}

/** A CA and one client certificate it signed, in `dataDir` under `names`: read, or generated where missing or stale. */
async function ensureSignedClient(options: {
  dataDir: string;
  names: { ca: string; caKey: string; cert: string; key: string };
  caName: string;
  user: string;
  groups: string[];
  now?: Date;
  certificates?: CertificateMaker;
}): Promise<FrontProxyCertificates> {
  const now = options.now ?? new Date();
  const make = options.certificates ?? localCertificates;
  const files = {
    ca: join(options.dataDir, options.names.ca),
    caKey: join(options.dataDir, options.names.caKey),
    cert: join(options.dataDir, options.names.cert),
    key: join(options.dataDir, options.names.key),
  };
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });

  let ca = await readPair(files.ca, files.caKey);
  const createdCa = !ca || !usable(ca.cert, now);
  if (createdCa) {
    ca = await make.createCa(now, options.caName);
    await writeSecret(files.caKey, ca.key);
    await writePublic(files.ca, ca.cert);
  }
  const caCert = new X509Certificate(ca!.cert);
  const subject = [`CN=${options.user}`, ...options.groups.map((g) => `O=${g}`)].join('\n');
  let client = createdCa ? undefined : await readPair(files.cert, files.key);
  const reuse =
    client !== undefined &&
    usable(client.cert, now) &&
    new X509Certificate(client.cert).checkIssued(caCert) &&
    new X509Certificate(client.cert).verify(caCert.publicKey) &&
    new X509Certificate(client.cert).subject === subject;
  if (!reuse) {
    client = await make.createClientCertificate(ca!, options.user, options.groups, now);
    await writeSecret(files.key, client.key);
    await writePublic(files.cert, client.cert);
  }
  return { ca: ca!.cert, client: client!, files, created: { ca: createdCa, cert: !reuse } };
}

/**
 * Serving material made in memory, nothing written: one CA (`CN=kapi-ca`) that signs both the serving certificate
 * (for `names`, as `ensureSelfSignedCertificates` covers them) and the admin's client certificate, and is the client
 * CA. For servers that live no longer than their process (tests): hand it to `serveApiServer({ security })`.
 */
export async function generateServingSecurity(options: { bindAddress?: string; names?: readonly string[]; now?: Date } = {}): Promise<ServingSecurity & Required<Pick<ServingSecurity, 'tls' | 'clientCa' | 'adminCertificate'>>> {
  const now = options.now ?? new Date();
  const ca = await localCertificates.createCa(now);
  const [serving, admin] = await Promise.all([
    localCertificates.createServingCertificate(ca, servingNames(options.bindAddress ?? '127.0.0.1', options.names), now),
    localCertificates.createClientCertificate(ca, ADMIN_SUBJECT.user, [...ADMIN_SUBJECT.groups], now),
  ]);
  return { tls: { ...serving, ca: ca.cert }, clientCa: ca.cert, adminCertificate: admin };
}

/**
 * Why `security` (as `generateServingSecurity` makes it, kept somewhere and read back) cannot serve now, or undefined
 * when it can: each certificate parses, was issued and signed by the CA, holds its key, and lasts another 30 days;
 * the serving certificate covers `names` (as `ensureSelfSignedCertificates`) and the client certificate is the admin's.
 */
export function servingSecurityProblem(security: ServingSecurity, options: { bindAddress?: string; names?: readonly string[]; now?: Date } = {}): string | undefined {
  const now = options.now ?? new Date();
  const { tls, clientCa, adminCertificate } = security;
  if (!tls?.ca || !clientCa || !adminCertificate) return 'incomplete';
  try {
    const ca = new X509Certificate(tls.ca);
    if (new X509Certificate(clientCa).fingerprint256 !== ca.fingerprint256) return 'the client CA is not the serving CA';
    for (const [what, pair] of [['serving', tls], ['admin', adminCertificate]] as const) {
      const cert = new X509Certificate(pair.cert);
      if (!usable(pair.cert, now)) return `the ${what} certificate is not valid for 30 more days`;
      if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return `the ${what} certificate was not signed by the CA`;
      if (!cert.checkPrivateKey(createPrivateKey(pair.key))) return `the ${what} key does not match its certificate`;
    }
    if (!covers(tls.cert, servingNames(options.bindAddress ?? '127.0.0.1', options.names))) return 'the serving certificate does not cover this host';
    const admin = new X509Certificate(adminCertificate.cert);
    if (admin.subject !== [`CN=${ADMIN_SUBJECT.user}`, ...ADMIN_SUBJECT.groups.map((g) => `O=${g}`)].join('\n')) return 'the client certificate is not the admin\'s';
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** Reads `--client-ca-file` (or, with `flag`, `--requestheader-client-ca-file`): one or more PEM CA certificates. */
export async function loadClientCa(file: string, flag = '--client-ca-file'): Promise<string> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`unable to load ${flag} ${file}: ${(error as Error).message}`);
  }
  try {
    new X509Certificate(pem);
  } catch (error) {
    throw new Error(`unable to load client CA file ${file}: ${(error as Error).message}`);
  }
  return pem;
}

/** Reads `--proxy-client-cert-file` and `--proxy-client-key-file`, with errors naming the flag. */
export async function loadProxyClientCertificate(certFile: string, keyFile: string): Promise<Pair> {
  const read = async (file: string, flag: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`unable to load ${flag} ${file}: ${(error as Error).message}`);
    }
  };
  const cert = await read(certFile, '--proxy-client-cert-file');
  const key = await read(keyFile, '--proxy-client-key-file');
  try {
    new X509Certificate(cert);
    createPrivateKey(key);
  } catch (error) {
    throw new Error(`unable to load proxy client certificate ${certFile} / ${keyFile}: ${(error as Error).message}`);
  }
  return { cert, key };
}




/** Reads `--tls-cert-file` and `--tls-private-key-file`, with errors naming the flag. */
export async function loadServingCertificate(certFile: string, keyFile: string): Promise<ServingCertificate> {
  const read = async (file: string, flag: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`unable to load ${flag} ${file}: ${(error as Error).message}`);
    }
  };
  const cert = await read(certFile, '--tls-cert-file');
  const key = await read(keyFile, '--tls-private-key-file');
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
    const privateKey = createPrivateKey(key);
    if (!leaf.checkPrivateKey(privateKey)) throw new Error('the private key does not match the certificate');
  } catch (error) {
    throw new Error(`unable to load server certificate ${certFile} / ${keyFile}: ${(error as Error).message}`);
  }
  return { cert, key, ca: chainRoot(leaf, cert) };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const signs = (issuer: X509Certificate, subject: X509Certificate) => subject.checkIssued(issuer) && subject.verify(issuer.publicKey);

/**
 * The CA clients verify a `--tls-cert-file` with (the admin kubeconfig's, the published kube-root-ca.crt): a
 * self-signed certificate is its own; a file with the chain after the certificate (as the flag allows) names its
 * root, when each certificate is signed by the next and the last by itself. Otherwise none (clients use their roots).
 */
function chainRoot(leaf: X509Certificate, file: string): string | undefined {
  if (signs(leaf, leaf)) return leaf.toString();
  let chain: X509Certificate[];
  try {
    chain = [leaf, ...(file.match(PEM_CERTIFICATE) ?? []).slice(1).map((pem) => new X509Certificate(pem))];
  } catch {
    return undefined;
  }
  const root = chain[chain.length - 1];
  if (chain.length < 2 || !signs(root, root)) return undefined;
  for (let i = 0; i + 1 < chain.length; i++) if (!signs(chain[i + 1], chain[i])) return undefined;
  return root.toString();
}

async function readPair(certFile: string, keyFile: string): Promise<Pair | undefined> {
  try {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    new X509Certificate(cert);
    createPrivateKey(key);
    return { cert, key };
  } catch {
    return undefined;
  }
}

function usable(pem: string, now: Date): boolean {
  const cert = new X509Certificate(pem);
  return new Date(cert.validFrom) <= now && new Date(cert.validTo).getTime() - now.getTime() > RENEW_BEFORE;
}

function covers(pem: string, names: { ips: string[]; dns: string[] }): boolean {
  const cert = new X509Certificate(pem);
  return names.ips.every((ip) => cert.checkIP(ip) !== undefined) && names.dns.every((name) => cert.checkHost(name, { subject: 'never' }) !== undefined);
}







async function writeSecret(file: string, data: string): Promise<void> {
  await writeAtomic(file, data, 0o600);
}

async function writePublic(file: string, data: string): Promise<void> {
  await writeAtomic(file, data, 0o644);
}

/** Writes beside the target then renames, so a crash never leaves half a key; `mode` also applies to an existing file. */
async function writeAtomic(file: string, data: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}
