import { fieldInvalid, formatTime, isObj, newBadRequest, newConflict, newInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { auditAnnotate, type PluginHost, type RequestContext, type SubresourceAction } from '@kapi/apiserver';
import type { SigningKey } from './keys.js';
import { findCachedOrLive } from './lookup.js';
import { issueToken, type KubernetesClaims, type ObjectRef } from './tokens.js';

/** How the server issues tokens (its `--service-account-*` and `--api-audiences` flags). */
export interface TokenIssuing {
  /** The `iss` of the tokens issued (the first `--service-account-issuer`). */
  issuer: string;
  key: SigningKey | Promise<SigningKey>;
  /** The audiences of a token requested without any (`--api-audiences`). */
  audiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0: none. */
  maxExpirationSeconds: number;
}

interface TokenRequestSpec {
  audiences?: unknown;
  expirationSeconds?: unknown;
  boundObjectRef?: { kind?: unknown; apiVersion?: unknown; name?: unknown; uid?: unknown } | null;
}

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
const TOKEN_REQUEST = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * `serviceaccounts/NAME/token` (authentication.k8s.io/v1 TokenRequest, kube's pkg/registry/core/serviceaccount/
 * storage/token.go): a signed token for the service account, for the audiences asked (the API audiences by
 * default), expiring after `expirationSeconds` (3600 by default, at least 600, shortened to the server's maximum
 * with a warning), optionally bound to a Pod, Secret or Node that must exist (with the uid given, if any). A pod
 * must run as the service account; a token bound to a pod on a node also names the node.
 */
export function tokenRequestAction(host: PluginHost, issuing: TokenIssuing): SubresourceAction {
  const get = async (ctx: RequestContext, kind: string, namespace: string, name: string): Promise<KubeObject> => {
    const entry = host.registry.byKind('', 'v1', kind);
    if (!entry) throw newBadRequest(`cannot bind token for object of type /v1, Kind=${kind}: the server does not serve it`);
    return host.store.get({ ...host.systemContext(entry, { namespace }), user: ctx.user, warnings: ctx.warnings }, name);
  };
  return async ({ ctx, name, body }) => {
    const request = (await body()) as KubeObject & { spec?: TokenRequestSpec };
    const meta = { ...(isObj(request.metadata) ? request.metadata : {}) } as Record<string, unknown>;
    // The body's name and namespace, when given, must be the URL's.
    if (meta.name !== undefined && meta.name !== '' && meta.name !== name) {
      throw newInvalid(TOKEN_REQUEST, name, [fieldInvalid('metadata.name', meta.name, 'must match the service account name if specified')]);
    }
    if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ctx.namespace) {
      throw newInvalid(TOKEN_REQUEST, name, [fieldInvalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const account = await host.store.get({ ...ctx, subresource: '' }, name);
    const spec = (isObj(request.spec) ? request.spec : {}) as TokenRequestSpec;
    const asked = spec.audiences;
    const errors: FieldError[] = [];
    if (asked !== undefined && asked !== null && (!Array.isArray(asked) || asked.some((a) => typeof a !== 'string'))) {
      errors.push(fieldInvalid('spec.audiences', asked, 'must be a list of strings'));
    }
    const audiences = Array.isArray(asked) && asked.length ? (asked as string[]) : [...issuing.audiences];
    meta.name = name;
    meta.namespace = ctx.namespace;
    const now = Math.floor(Date.now() / 1000);
    meta.creationTimestamp = formatTime(now);

    let expirationSeconds = DEFAULT_EXPIRATION_SECONDS;
    if (spec.expirationSeconds !== undefined && spec.expirationSeconds !== null) {
      if (typeof spec.expirationSeconds !== 'number' || !Number.isInteger(spec.expirationSeconds)) {
        errors.push(fieldInvalid('spec.expirationSeconds', spec.expirationSeconds, 'must be an integer'));
      } else expirationSeconds = spec.expirationSeconds;
    }
    if (expirationSeconds < MIN_EXPIRATION_SECONDS) errors.push(fieldInvalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (expirationSeconds > MAX_EXPIRATION_SECONDS) errors.push(fieldInvalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    if (errors.length) throw newInvalid(TOKEN_REQUEST, '', errors);

    const kubernetes: KubernetesClaims = { namespace: ctx.namespace, serviceaccount: { name, uid: str(account.metadata?.uid) } };
    const ref = spec.boundObjectRef;
    if (isObj(ref)) {
      const kind = str(ref.kind);
      const apiVersion = str(ref.apiVersion);
      const slash = apiVersion.indexOf('/');
      const group = slash < 0 ? '' : apiVersion.slice(0, slash);
      const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
      const refName = str(ref.name);
      if (group !== '' || !['Pod', 'Secret', 'Node'].includes(kind)) {
        throw newBadRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
      }
      const bound = await get(ctx, kind, kind === 'Node' ? '' : ctx.namespace, refName);
      const boundRef: ObjectRef = { name: refName, uid: str(bound.metadata?.uid) };
      if (kind === 'Pod') {
        // The pod's service account (spec.serviceAccount is its deprecated spelling; kube's admission sets `default`).
        const podSpec = (bound as { spec?: { serviceAccountName?: unknown; serviceAccount?: unknown; nodeName?: unknown } }).spec;
        const podAccount = str(podSpec?.serviceAccountName) || str(podSpec?.serviceAccount) || 'default';
        if (podAccount !== name) throw newBadRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
        kubernetes.pod = boundRef;
        // kube (ServiceAccountTokenPodNodeInfo) also names the node a bound pod runs on: without its uid when the
        // node does not exist.
        const nodeName = str(podSpec?.nodeName);
        if (nodeName) {
          const nodes = host.registry.byKind('', 'v1', 'Node');
          const node = nodes ? await findCachedOrLive(host, host.systemContext(nodes), nodeName) : undefined;
          kubernetes.node = { name: nodeName, uid: str(node?.metadata?.uid) };
        }
      } else if (kind === 'Secret') kubernetes.secret = boundRef;
      else kubernetes.node = boundRef;
      const uid = str(ref.uid);
      if (uid && uid !== boundRef.uid) {
        throw newConflict({ group: '', resource: kind }, refName, `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`);
      }
    }
    if (issuing.maxExpirationSeconds > 0 && expirationSeconds > issuing.maxExpirationSeconds) {
      ctx.warnings?.push(`requested expiration of ${expirationSeconds} seconds shortened to ${issuing.maxExpirationSeconds} seconds`);
      expirationSeconds = issuing.maxExpirationSeconds;
    }

    const { token, expires, jti } = await issueToken(await issuing.key, { issuer: issuing.issuer, audiences, expirationSeconds, kubernetes }, now);
    auditAnnotate('authentication.kubernetes.io/issued-credential-id', `JTI=${jti}`);
    const object = {
      ...request,
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: meta,
      spec: { ...spec, audiences, expirationSeconds },
      status: { token, expirationTimestamp: formatTime(expires) },
    };
    return { status: 201, object };
  };
}
