import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { decodeJwt } from 'jose/jwt/decode';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import type { SigningKey, VerificationKey } from './keys.js';

/** A name and uid, as the `kubernetes.io` claim carries the objects a token is bound to. */
export interface ObjectRef {
  name: string;
  uid: string;
}

/** kube's private claims (pkg/serviceaccount/claims.go): the service account and what the token is bound to. */
export interface KubernetesClaims {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
}

/** A verified token's claims. */
export interface ServiceAccountClaims {
  kubernetes: KubernetesClaims;
  audiences: string[];
  jti?: string;
}

/** What a token is issued for. */
export interface TokenGrant {
  issuer: string;
  audiences: string[];
  expirationSeconds: number;
  kubernetes: KubernetesClaims;
}

/** kube's bound token: `sub` system:serviceaccount:<ns>:<name>, `aud` always a list, iat/nbf now, a fresh `jti`. */
export async function issueToken(key: SigningKey, grant: TokenGrant, now = Math.floor(Date.now() / 1000)): Promise<{ token: string; expires: number; jti: string }> {
  const expires = now + grant.expirationSeconds;
  const jti = randomUUID();
  const { kubernetes } = grant;
  // Loaded on first use, as is jwtVerify: a server that issues and checks no tokens does not load jose's JWS code.
  const { SignJWT } = await import('jose/jwt/sign');
  const token = await new SignJWT({ 'kubernetes.io': kubernetes as unknown as JWTPayload[string] })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(grant.issuer)
    .setSubject(`system:serviceaccount:${kubernetes.namespace}:${kubernetes.serviceaccount.name}`)
    .setAudience(grant.audiences)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(expires)
    .setJti(jti)
    .sign(key.privateKey);
  return { token, expires, jti };
}

/** Why a token was refused: the message TokenReview reports (clients of a request only see 401). */
export class TokenRefused extends Error {}

/** kube's leeway for `exp`, `nbf` and `iat` (go-jose's DefaultLeeway). */
const LEEWAY_SECONDS = 60;

/**
 * The issuer a token claims, read without verifying it: tokens of other issuers are not ours to judge (another
 * authenticator may know them). Undefined for anything that is not a JWT.
 */
export function claimedIssuer(token: string): string | undefined {
  if (token.split('.').length !== 3) return undefined;
  try {
    decodeProtectedHeader(token);
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies a token one of `issuers` issued: the signature by one of `keys` (the one its `kid` names when it names
 * one), its times with kube's leeway, an audience among `audiences`, and the shape of the `kubernetes.io` claim.
 */
export async function verifyToken(token: string, keys: readonly VerificationKey[], issuers: readonly string[], audiences: readonly string[]): Promise<ServiceAccountClaims> {
  let header: { kid?: string; alg?: string };
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new TokenRefused('malformed token');
  }
  const candidates = keys.filter((k) => k.alg === header.alg && (header.kid === undefined || header.kid === '' || k.kid === header.kid));
  let payload: JWTPayload | undefined;
  let failure: unknown;
  const { jwtVerify } = await import('jose/jwt/verify');
  for (const key of candidates) {
    try {
      ({ payload } = await jwtVerify(token, key.key, { issuer: [...issuers], algorithms: [key.alg], clockTolerance: LEEWAY_SECONDS, requiredClaims: ['exp', 'sub'] }));
      break;
    } catch (err) {
      failure = err;
      if (!isSignatureFailure(err)) break;
    }
  }
  if (!payload) throw new TokenRefused(candidates.length ? refusal(failure) : 'invalid signature');
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + LEEWAY_SECONDS) throw new TokenRefused('service account token is issued in the future');
  const tokenAudiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  const matched = tokenAudiences.filter((a) => audiences.includes(a));
  if (!matched.length) throw new TokenRefused(`token audiences ${JSON.stringify(tokenAudiences)} is invalid for the target audiences ${JSON.stringify(audiences)}`);
  const kubernetes = kubernetesClaims(payload['kubernetes.io']);
  if (payload.sub !== `system:serviceaccount:${kubernetes.namespace}:${kubernetes.serviceaccount.name}`) throw new TokenRefused('sub does not match the service account claim');
  return { kubernetes, audiences: matched, jti: typeof payload.jti === 'string' ? payload.jti : undefined };
}

const isSignatureFailure = (err: unknown) => (err as { code?: string })?.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED';

function refusal(err: unknown): string {
  const code = (err as { code?: string })?.code;
  if (code === 'ERR_JWT_EXPIRED') return 'token has expired';
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'invalid signature';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return `token claim invalid: ${(err as Error).message}`;
  return 'malformed token';
}

/** A ref of the claim; `uidOptional`: a pod-bound token names its pod's node even when the node was not found. */
const ref = (value: unknown, required: boolean, uidOptional = false): ObjectRef | undefined => {
  if ((value === undefined || value === null) && !required) return undefined;
  const r = value as { name?: unknown; uid?: unknown } | undefined;
  const uidOk = typeof r?.uid === 'string' && (r.uid !== '' || uidOptional);
  if (!r || typeof r.name !== 'string' || !r.name || !uidOk) throw new TokenRefused('malformed kubernetes.io claim');
  return { name: r.name, uid: r.uid as string };
};

/** The `kubernetes.io` claim, checked: a namespace and a service account, and refs with a name and a uid. */
function kubernetesClaims(value: unknown): KubernetesClaims {
  const k = value as Record<string, unknown> | undefined;
  if (!k || typeof k !== 'object' || typeof k.namespace !== 'string' || !k.namespace) throw new TokenRefused('malformed kubernetes.io claim');
  const claims: KubernetesClaims = { namespace: k.namespace, serviceaccount: ref(k.serviceaccount, true)! };
  for (const field of ['pod', 'secret', 'node'] as const) {
    const r = ref(k[field], false, field === 'node' && k.pod !== undefined && k.pod !== null);
    if (r) claims[field] = r;
  }
  return claims;
}
