import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { keyId, signingKey, verificationKeys } from './keys.js';
import { claimedIssuer, issueToken, TokenRefused, verifyToken, type TokenGrant } from './tokens.js';

const rsaPem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const key = signingKey(rsaPem());
const grant: TokenGrant = {
  issuer: ISSUER,
  audiences: [ISSUER],
  expirationSeconds: 3600,
  kubernetes: { namespace: 'team', serviceaccount: { name: 'robot', uid: 'u-1' } },
};
const refusedWith = async (p: Promise<unknown>, message: RegExp | string) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TokenRefused);
  expect((err as Error).message).toMatch(message);
};

describe('service-account tokens', () => {
  it('round-trips kube\'s claims', async () => {
    const { token, expires } = await issueToken(key, grant, 1_000_000);
    expect(expires).toBe(1_003_600);
    expect(claimedIssuer(token)).toBe(ISSUER);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'RS256', kid: key.kid });
    const now = await issueToken(key, grant);
    await expect(verifyToken(now.token, [key], [ISSUER], [ISSUER])).resolves.toMatchObject({ kubernetes: grant.kubernetes, audiences: [ISSUER] });
  });

  it('refuses tokens issued in the future, beyond the leeway', async () => {
    const now = Math.floor(Date.now() / 1000);
    const future = await new SignJWT({ 'kubernetes.io': grant.kubernetes })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(ISSUER).setSubject('system:serviceaccount:team:robot').setAudience([ISSUER])
      .setIssuedAt(now + 3600).setExpirationTime(now + 7200)
      .sign(key.privateKey);
    await refusedWith(verifyToken(future, [key], [ISSUER], [ISSUER]), 'service account token is issued in the future');
  });

  it('refuses expired tokens, tokens not yet valid, other issuers, other audiences and other keys', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refusedWith(verifyToken((await issueToken(key, grant, now - 3600 - 61)).token, [key], [ISSUER], [ISSUER]), 'token has expired');
    // kube's leeway: a minute.
    await expect(verifyToken((await issueToken(key, grant, now - 3600 - 30)).token, [key], [ISSUER], [ISSUER])).resolves.toBeDefined();
    await refusedWith(verifyToken((await issueToken(key, grant, now + 120)).token, [key], [ISSUER], [ISSUER]), /claim invalid/);
    const token = (await issueToken(key, grant)).token;
    await refusedWith(verifyToken(token, [key], ['https://other'], [ISSUER]), /claim invalid/);
    await refusedWith(verifyToken(token, [key], [ISSUER], ['vault']), 'is invalid for the target audiences');
    const other = signingKey(rsaPem());
    await refusedWith(verifyToken(token, [other], [ISSUER], [ISSUER]), 'invalid signature');
    // The right key under another kid still has to be the one named.
    await refusedWith(verifyToken(token, [{ ...key, kid: 'x' }], [ISSUER], [ISSUER]), 'invalid signature');
  });

  it('refuses forged tokens: alg none, HS256 with the public key as secret, tampered claims, a sub that is not the claim', async () => {
    const token = (await issueToken(key, grant)).token;
    const [h, p, s] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: key.kid })).toString('base64url')}.${p}.`;
    await refusedWith(verifyToken(none, [key], [ISSUER], [ISSUER]), /invalid signature|malformed/);
    const publicPem = key.key.export({ type: 'spki', format: 'pem' }) as string;
    const hs = await new SignJWT({ 'kubernetes.io': grant.kubernetes })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setIssuer(ISSUER).setSubject('system:serviceaccount:team:robot').setAudience([ISSUER]).setExpirationTime('1h')
      .sign(Buffer.from(publicPem));
    await refusedWith(verifyToken(hs, [key], [ISSUER], [ISSUER]), 'invalid signature');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, 'kubernetes.io': { ...payload['kubernetes.io'], namespace: 'kube-system' } })).toString('base64url')}.${s}`;
    await refusedWith(verifyToken(tampered, [key], [ISSUER], [ISSUER]), 'invalid signature');
    const lying = await issueToken(key, { ...grant, kubernetes: { ...grant.kubernetes, serviceaccount: { name: '', uid: 'u' } } });
    await refusedWith(verifyToken(lying.token, [key], [ISSUER], [ISSUER]), 'malformed kubernetes.io claim');
    const forgedSub = await new SignJWT({ 'kubernetes.io': grant.kubernetes })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(ISSUER).setSubject('system:serviceaccount:kube-system:admin').setAudience([ISSUER]).setExpirationTime('1h')
      .sign(key.privateKey);
    await refusedWith(verifyToken(forgedSub, [key], [ISSUER], [ISSUER]), 'sub does not match');
    for (const junk of ['', 'a.b', 'a.b.c', `${h}.%%%.${s}`]) expect(claimedIssuer(junk)).toBeUndefined();
  });

  it('reads ECDSA keys, certificates and several keys from one PEM file, with kube\'s key IDs', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ecKey = signingKey(ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string);
    expect(ecKey.alg).toBe('ES256');
    const token = (await issueToken(ecKey, grant)).token;
    const file = [ec.publicKey.export({ type: 'spki', format: 'pem' }), key.privateKey.export({ type: 'pkcs8', format: 'pem' })].join('\n');
    const keys = verificationKeys(file);
    expect(keys.map((k) => k.alg)).toEqual(['ES256', 'RS256']);
    expect(keys.map((k) => k.kid)).toEqual([ecKey.kid, key.kid]);
    await expect(verifyToken(token, keys, [ISSUER], [ISSUER])).resolves.toBeDefined();
    // kube's keyIDFromPublicKey: base64url(SHA-256(PKIX DER)), 43 characters.
    expect(keyId(key.key)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(() => verificationKeys('not a key')).toThrow('no PEM key found');
    expect(() => signingKey(generateKeyPairSync('ed25519').privateKey)).toThrow('RSA or ECDSA');
    // jose refuses RSA keys under 2048 bits: refused when read, not at the first token.
    expect(() => signingKey(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey)).toThrow('RSA service-account keys must be 2048 bits or larger, not 1024');
  });
});
