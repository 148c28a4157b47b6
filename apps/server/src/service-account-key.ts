import { generateKeyPair } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JWKS_PATH, signingKey, verificationKeys, type ServiceAccountTokenOptions } from '@kapi/api-core';
import type { ServerConfig } from './flags.js';

/** The service-account signing key generated in `--data-dir` when `--service-account-signing-key-file` is not given. */
export const SERVICE_ACCOUNT_KEY = 'service-account.key';

type TokenFlags = Pick<
  ServerConfig,
  | 'dataDir'
  | 'serviceAccountIssuers'
  | 'serviceAccountSigningKeyFile'
  | 'serviceAccountKeyFiles'
  | 'apiAudiences'
  | 'serviceAccountMaxTokenExpirationMs'
  | 'serviceAccountJwksUri'
  | 'advertiseAddress'
  | 'securePort'
>;

function read(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`failed to read --${flag} ${path}: ${(error as Error).message}`);
  }
}

/** The key in the data dir, or undefined when there is none yet. */
function readKey(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`failed to read ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Keeps a new key (PKCS#8 PEM, mode 0600) unless another server got there first. It is written whole under another
 * name, then linked into place: a crash leaves no empty or partial key, and the first server's key is the one kept.
 */
function keep(dataDir: string, path: string, pem: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, pem, { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return pem;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8');
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * The signing key in the data dir, or, on first start, a promise of one: an RSA 2048 key, made off the main thread
 * (finding one takes 0.1–0.7 s, which the start does not wait for; what needs the key waits), then kept.
 */
function dataDirKey(dataDir: string): string | Promise<string> {
  const path = join(dataDir, SERVICE_ACCOUNT_KEY);
  const found = readKey(path);
  if (found !== undefined) return found;
  return promisify(generateKeyPair)('rsa', { modulusLength: 2048 }).then(({ privateKey }) =>
    keep(dataDir, path, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
  );
}

/**
 * kube-apiserver's service-account token options from the flags, the keys read (and checked) now so a bad key fails
 * the start: `--service-account-signing-key-file` or the key kept in the data dir, `--service-account-key-file`s,
 * `--api-audiences`, `--service-account-max-token-expiration`, and the JWKS URI (`--service-account-jwks-uri`, or
 * kube's default: this server's advertised address with /openid/v1/jwks).
 */
export function serviceAccountTokens(config: TokenFlags): ServiceAccountTokenOptions {
  const given = config.serviceAccountSigningKeyFile;
  const key = given ? read(given, 'service-account-signing-key-file') : dataDirKey(config.dataDir);
  // A key being made now is good; one read from a file is checked, so that a bad key fails the start.
  if (typeof key === 'string') {
    try {
      signingKey(key);
    } catch (error) {
      const what = given ? 'service-account-signing-key-file' : `the service-account key ${join(config.dataDir, SERVICE_ACCOUNT_KEY)} (delete it to have a new one made)`;
      throw new Error(`failed to parse ${what}: ${(error as Error).message}`);
    }
  }
  const keys = config.serviceAccountKeyFiles.map((file) => {
    const pem = read(file, 'service-account-key-file');
    try {
      verificationKeys(pem);
    } catch (error) {
      throw new Error(`failed to parse service-account-key-file ${file}: ${(error as Error).message}`);
    }
    return pem;
  });
  const advertised = config.securePort ? `https://${config.advertiseAddress}:${config.securePort}${JWKS_PATH}` : undefined;
  return {
    issuers: config.serviceAccountIssuers,
    signingKey: key,
    verificationKeys: keys,
    audiences: config.apiAudiences,
    maxExpirationSeconds: Math.floor(config.serviceAccountMaxTokenExpirationMs / 1000),
    jwksUri: config.serviceAccountJwksUri ?? advertised,
  };
}
