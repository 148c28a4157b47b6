import type { RequestInfo } from '../endpoints/request-info.js';

/** The labels kube-apiserver puts on a request's metrics (its MonitorRequest), `code` aside. */
export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

/** kube's CleanScope: resource (named, or a create), namespace, cluster, or '' for non-resource requests. */
function scopeOf(info: RequestInfo | undefined): string {
  if (!info) return '';
  if (info.name !== '' || info.verb === 'create') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** kube's cleanDryRun: '' without the parameter, the sorted distinct values, or `invalid` for anything but All. */
export function dryRunOf(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

/** A server-side apply body (its PATCH is reported as APPLY). */
export function isApplyPatch(contentType: string | null): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === APPLY_CONTENT_TYPE;
}

/**
 * kube's reported verb (CanonicalVerb then cleanVerb): GET of a collection is LIST, watches are WATCH, a PATCH with
 * an apply body is APPLY, streaming subresources are CONNECT, and methods kube does not know are `other`.
 */
function verbOf(method: string, info: RequestInfo | undefined, scope: string, contentType: string | null): string {
  let verb = method.toUpperCase();
  if (verb === 'HEAD') verb = 'GET';
  if (verb === 'GET' && scope !== 'resource' && scope !== '') verb = 'LIST';
  if (info?.verb === 'watch') verb = 'WATCH';
  if (verb === 'PATCH' && isApplyPatch(contentType)) verb = 'APPLY';
  if (info && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/**
 * A request's metric labels. Resource requests carry their group, version, resource and subresource; the caller
 * only records those the server serves (an unknown resource is a 404 kube does not count either), so a client
 * cannot grow the label sets by inventing paths. Non-resource requests carry only the verb, and `subresource` is
 * the health check's path for /healthz, /livez and /readyz, as kube's healthz handlers label theirs.
 */
export function requestLabels(method: string, url: URL, info: RequestInfo | undefined, contentType: string | null, healthPath = false): RequestLabels {
  const scope = scopeOf(info);
  return {
    verb: verbOf(method, info, scope, contentType),
    dry_run: dryRunOf(url.searchParams),
    group: info?.group ?? '',
    version: info?.version ?? '',
    resource: info?.resource ?? '',
    subresource: info?.subresource ?? (healthPath ? url.pathname : ''),
    scope,
    component: 'apiserver',
  };
}

const KNOWN_USERNAMES = new Set(['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default']);

/**
 * kube's compressUsername for authenticated_user_requests: a few well-known identities by name, email-like names
 * as `email_id`, everyone else as `other`, so the metric neither grows with the user base nor names users.
 */
export function compressUsername(username: string): string {
  if (KNOWN_USERNAMES.has(username)) return username;
  return username.includes('@') ? 'email_id' : 'other';
}
