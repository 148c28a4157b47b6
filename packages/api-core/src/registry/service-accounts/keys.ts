import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** A key that verifies service-account tokens: its JWS algorithm and kube's key ID. */
export interface VerificationKey {
  key: KeyObject;
  alg: string;
  kid: string;
}

/** The signing key of service-account tokens, with what verifies its tokens. */
export interface SigningKey extends VerificationKey {
  privateKey: KeyObject;
}

/** The JWS algorithm kube signs with for a key (serviceaccount.JWTTokenGenerator): RS256, or ES256/384/512 by curve. */
function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') {
    // jose (as the JWS RFCs advise) refuses shorter RSA keys; kube's go-jose takes them.
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) throw new Error(`RSA service-account keys must be 2048 bits or larger, not ${bits}`);
    return 'RS256';
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new Error(`service-account keys must be RSA or ECDSA (P-256, P-384, P-521), not ${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}

/** kube's keyIDFromPublicKey: the SHA-256 of the public key's PKIX DER, base64url without padding. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The signing key from PEM (PKCS#1, PKCS#8 or SEC1), as `--service-account-signing-key-file` gives it. */
export function signingKey(pem: string | KeyObject): SigningKey {
  const privateKey = typeof pem === 'string' ? createPrivateKey(pem) : pem;
  if (privateKey.type !== 'private') throw new Error('the service-account signing key must be a private key');
  const key = createPublicKey(privateKey);
  return { privateKey, key, alg: algorithmOf(key), kid: keyId(key) };
}

/**
 * The keys in a PEM file given to `--service-account-key-file`: public keys, certificates, or private keys whose
 * public halves verify (kube reads all three), each block in turn.
 */
export function verificationKeys(pem: string): VerificationKey[] {
  const blocks = pem.match(/-----BEGIN [A-Z0-9 ]+-----[\s\S]+?-----END [A-Z0-9 ]+-----/g) ?? [];
  if (!blocks.length) throw new Error('no PEM key found');
  return blocks.map((block) => {
    // A certificate's public key verifies too (createPublicKey reads X.509 certificates).
    const key = /PRIVATE KEY/.test(block) ? createPublicKey(createPrivateKey(block)) : createPublicKey(block);
    return { key, alg: algorithmOf(key), kid: keyId(key) };
  });
}
