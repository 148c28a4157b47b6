import type { KubeObject } from '@kapi/apimachinery';
import { bearerToken, INVALID_BEARER_TOKEN, type AuthenticatedUser, type Authenticator, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import { newUnauthorized } from '@kapi/apimachinery';
import type { VerificationKey } from './keys.js';
import { findCachedOrLive } from './lookup.js';
import { claimedIssuer, TokenRefused, verifyToken, type ObjectRef } from './tokens.js';

/** What the authenticator needs to know of the server's service-account tokens. */
export interface TokenAuthentication {
  /** Issuers whose tokens are accepted (`--service-account-issuer`, every value). */
  issuers: readonly string[];
  /** Keys that verify tokens (`--service-account-key-file`, and the signing key). */
  keys: readonly VerificationKey[] | Promise<readonly VerificationKey[]>;
  /** The API audiences (`--api-audiences`): a token must carry one of them, unless a TokenReview asks for others. */
  audiences: readonly string[];
}

type Lookup = (entry: ResourceEntry | undefined, namespace: string, name: string) => Promise<KubeObject | undefined>;

/**
 * kube's service-account token authenticator (pkg/serviceaccount/jwt.go with the bound-token validator): a JWT one
 * of the server's issuers signed, with one of the API audiences (or one a TokenReview asks for), for a service
 * account that still exists with the uid it names, bound to objects (a pod, a secret, a node) that still exist with
 * theirs and are not being deleted. The user is `system:serviceaccount:<ns>:<name>` in `system:serviceaccounts`
 * and `system:serviceaccounts:<ns>`, with kube's extras (the pod's and node's name and uid, the token's ID).
 * Any other bearer token is refused as kube's bearertoken authenticator refuses a token no token authenticator
 * accepts ("invalid bearer token": 401, unless another authenticator of the server accepts it).
 */
export function serviceAccountAuthenticator(host: PluginHost, auth: TokenAuthentication): Authenticator {
  const entryOf = (kind: string) => host.registry.byKind('', 'v1', kind);
  const lookup: Lookup = async (entry, namespace, name) => {
    if (!entry) return undefined;
    return findCachedOrLive(host, host.systemContext(entry, { namespace }), name);
  };
  const bound = async (kind: string, namespace: string, claim: ObjectRef | undefined, what: string) => {
    if (!claim) return;
    const obj = await lookup(entryOf(kind), namespace, claim.name);
    if (!obj) throw new TokenRefused(`${what} ${namespace ? `${namespace}/` : ''}${claim.name} not found`);
    if (obj.metadata?.uid !== claim.uid) throw new TokenRefused(`${what} UID (${String(obj.metadata?.uid)}) does not match claim (${claim.uid})`);
    if (obj.metadata?.deletionTimestamp) throw new TokenRefused(`${what} ${claim.name} is being deleted`);
  };
  return async (credentials) => {
    const token = bearerToken(credentials.headers);
    if (!token) return undefined;
    const issuer = claimedIssuer(token);
    if (issuer === undefined || !auth.issuers.includes(issuer)) throw newUnauthorized(INVALID_BEARER_TOKEN);
    const audiences = credentials.audiences ?? auth.audiences;
    const claims = await verifyToken(token, await auth.keys, auth.issuers, audiences);
    const k = claims.kubernetes;
    await bound('ServiceAccount', k.namespace, k.serviceaccount, 'service account');
    await bound('Pod', k.namespace, k.pod, 'pod');
    await bound('Secret', k.namespace, k.secret, 'secret');
    // A pod-bound token names the pod's node for information only; a node-bound token is bound to it.
    if (!k.pod) await bound('Node', '', k.node, 'node');
    const extra: Record<string, string[]> = {};
    if (k.pod) {
      extra['authentication.kubernetes.io/pod-name'] = [k.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [k.pod.uid];
    }
    if (k.node) {
      extra['authentication.kubernetes.io/node-name'] = [k.node.name];
      if (k.node.uid) extra['authentication.kubernetes.io/node-uid'] = [k.node.uid];
    }
    if (claims.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.jti}`];
    const user: AuthenticatedUser = {
      username: `system:serviceaccount:${k.namespace}:${k.serviceaccount.name}`,
      uid: k.serviceaccount.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${k.namespace}`],
      extra,
      audiences: claims.audiences,
    };
    return user;
  };
}
