import type { KeyObject } from 'node:crypto';
import type { PluginHost } from '@kapi/apiserver';
import { serviceAccountAuthenticator } from './authenticator.js';
import { ensureDefaultServiceAccounts } from './default-account.js';
import { JWKS_PATH, serveIssuerDiscovery } from './discovery.js';
import { signingKey, verificationKeys, type SigningKey, type VerificationKey } from './keys.js';
import { tokenRequestAction } from './token-request.js';

export { keyId, signingKey, verificationKeys } from './keys.js';
export { JWKS_PATH, OPENID_CONFIGURATION_PATH } from './discovery.js';

/** Service-account tokens, as kube-apiserver's `--service-account-*` and `--api-audiences` flags configure them. */
export interface ServiceAccountTokenOptions {
  /** `--service-account-issuer`: the first issues tokens; tokens of every one are accepted. */
  issuers: string[];
  /**
   * `--service-account-signing-key-file`: the private key (PEM: PKCS#1, PKCS#8 or SEC1; RSA or ECDSA) tokens are
   * signed with. Or a promise of one, for a key still being generated: the server starts meanwhile, and token
   * requests, token authentication and the JWKS wait for it (a rejected promise fails them with a 500).
   */
  signingKey: string | KeyObject | Promise<string | KeyObject>;
  /**
   * `--service-account-key-file`: PEM texts of public keys, certificates or private keys that verify tokens, besides
   * the signing key's (which always does).
   */
  verificationKeys?: string[];
  /** `--api-audiences`: the audiences of tokens requested without any, and those accepted; default: every issuer. */
  audiences?: string[];
  /** `--service-account-max-token-expiration`, in seconds; 0 or undefined: none. */
  maxExpirationSeconds?: number;
  /** `--service-account-jwks-uri`: the `jwks_uri` of the OpenID configuration; default: the issuer's URL with /openid/v1/jwks. */
  jwksUri?: string;
}

/**
 * kube's service accounts: the TokenRequest subresource (`kubectl create token`), the authenticator of the tokens it
 * issues (also asked by TokenReview), the issuer's OpenID discovery documents, and the `default` ServiceAccount in
 * every namespace. Without token options, only the last.
 */
export function installServiceAccounts(host: PluginHost, options: ServiceAccountTokenOptions | undefined): void {
  ensureDefaultServiceAccounts(host);
  if (!options) return;
  const issuer = options.issuers[0];
  if (!issuer) throw new Error('service-account tokens need an issuer (--service-account-issuer)');
  // Keys that cannot be used fail the install, except a key still being made (its maker checks it).
  const others = (options.verificationKeys ?? []).flatMap((pem) => verificationKeys(pem));
  const material = (given: string | KeyObject) => {
    const key = signingKey(given);
    const keys = new Map<string, VerificationKey>([[key.kid, key]]);
    for (const k of others) keys.set(k.kid, k);
    return { key, keys: [...keys.values()] };
  };
  const given = options.signingKey;
  let key: SigningKey | Promise<SigningKey>;
  let keys: VerificationKey[] | Promise<VerificationKey[]>;
  if (given instanceof Promise) {
    const made = given.then(material);
    made.catch((err: unknown) => host.log(0, 'the service-account signing key could not be made: tokens cannot be issued or verified', { err, logger: 'serviceaccount' }));
    // Handled here; each use still sees the rejection.
    key = made.then((m) => m.key);
    keys = made.then((m) => m.keys);
    key.catch(() => {});
    keys.catch(() => {});
  } else {
    ({ key, keys } = material(given));
  }
  // kube's default API audiences: every issuer (tokens of an issuer being migrated from stay good).
  const audiences = options.audiences?.length ? options.audiences : [...options.issuers];
  host.addSubresource(
    { group: '', resource: 'serviceaccounts', subresource: 'token' },
    tokenRequestAction(host, { issuer, key, audiences, maxExpirationSeconds: options.maxExpirationSeconds ?? 0 }),
  );
  host.addAuthenticator(serviceAccountAuthenticator(host, { issuers: options.issuers, keys, audiences }));
  const jwksUri = options.jwksUri ?? `${issuer.replace(/\/+$/, '')}${JWKS_PATH}`;
  serveIssuerDiscovery(host, issuer, jwksUri, keys);
}
