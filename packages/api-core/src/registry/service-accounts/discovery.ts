import type { PluginHost } from '@kapi/apiserver';
import type { VerificationKey } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/**
 * kube's service-account issuer discovery (pkg/serviceaccount/openidmetadata.go): the OpenID configuration of the
 * issuer and the public keys that verify its tokens, for relying parties outside the cluster. Served only when the
 * issuer is an https URL, as kube does; RBAC lets service accounts read them (system:service-account-issuer-discovery).
 */
export function serveIssuerDiscovery(host: PluginHost, issuer: string, jwksUri: string, keys: readonly VerificationKey[] | Promise<readonly VerificationKey[]>): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return;
  }
  if (url.protocol !== 'https:') return;
  const jwk = async (k: VerificationKey) => {
    const { exportJWK } = await import('jose/key/export');
    const { kty, ...material } = await exportJWK(k.key);
    return { use: 'sig', kty, kid: k.kid, alg: k.alg, ...material };
  };
  let jwks: Promise<{ keys: unknown[] }> | undefined;
  const configuration = async () => ({
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set((await keys).map((k) => k.alg))].sort(),
  });
  const answer = (body: unknown, contentType: string) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=3600' } });
  host.addPath(OPENID_CONFIGURATION_PATH, async () => answer(await configuration(), 'application/json'));
  host.addPath(JWKS_PATH, async () => answer(await (jwks ??= Promise.resolve(keys).then((all) => Promise.all(all.map(jwk))).then((all) => ({ keys: all }))), 'application/jwk-set+json'));
}
