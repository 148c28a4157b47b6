import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_ACCOUNT_KEY, serviceAccountTokens } from '../src/service-account-key.js';

const flags = (dataDir: string, more: Partial<Parameters<typeof serviceAccountTokens>[0]> = {}) => ({
  dataDir,
  serviceAccountIssuers: ['https://kubernetes.default.svc.cluster.local'],
  serviceAccountKeyFiles: [],
  serviceAccountMaxTokenExpirationMs: 0,
  advertiseAddress: '10.1.2.3',
  securePort: 6443,
  ...more,
});

describe('serviceAccountTokens', () => {
  it('generates a signing key in the data dir on first start (0600), without waiting for it, and reuses it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kapi-sakey-')), 'data');
    const first = serviceAccountTokens(flags(dir));
    // The start goes on while the key is made: the options hold a promise of it, and nothing is written yet.
    expect(first.signingKey).toBeInstanceOf(Promise);
    const path = join(dir, SERVICE_ACCOUNT_KEY);
    expect(existsSync(path)).toBe(false);
    const made = await first.signingKey;
    expect(made).toContain('BEGIN PRIVATE KEY');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(made);
    expect(serviceAccountTokens(flags(dir)).signingKey).toBe(made);
    // kube's default jwks_uri: this server's advertised address.
    expect(first.jwksUri).toBe('https://10.1.2.3:6443/openid/v1/jwks');
    expect(serviceAccountTokens(flags(dir, { serviceAccountMaxTokenExpirationMs: 7_200_000 })).maxExpirationSeconds).toBe(7200);
  });

  it('reads the flags\' key files, and fails the start on a key it cannot use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-sakey-'));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signing = join(dir, 'sa.key');
    writeFileSync(signing, ec.privateKey.export({ type: 'sec1', format: 'pem' }));
    const pub = join(dir, 'old.pub');
    writeFileSync(pub, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }));
    const options = serviceAccountTokens(flags(dir, { serviceAccountSigningKeyFile: signing, serviceAccountKeyFiles: [pub] }));
    expect(options.signingKey).toContain('BEGIN EC PRIVATE KEY');
    expect(options.verificationKeys).toHaveLength(1);
    const junk = join(dir, 'junk.key');
    writeFileSync(junk, 'not a key');
    expect(() => serviceAccountTokens(flags(dir, { serviceAccountSigningKeyFile: junk }))).toThrow(/^failed to parse service-account-signing-key-file: /);
    expect(() => serviceAccountTokens(flags(dir, { serviceAccountKeyFiles: [junk] }))).toThrow(`failed to parse service-account-key-file ${junk}: no PEM key found`);
    expect(() => serviceAccountTokens(flags(dir, { serviceAccountSigningKeyFile: join(dir, 'missing') }))).toThrow(/^failed to read --service-account-signing-key-file /);
  });
});
