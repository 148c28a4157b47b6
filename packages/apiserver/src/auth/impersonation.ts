import { newBadRequest } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import { ANONYMOUS, AUTHENTICATED_GROUP } from './authenticators.js';
import { forbiddenError } from './forbidden.js';
import type { AuthorizationAttributes, Authorizer } from './types.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** One thing a request asks to act as (kube's impersonation ObjectReference). */
interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  name: string;
  namespace?: string;
  /** The extra key, for UserExtra. */
  key?: string;
}

/** `%v` of kube's ObjectReference list, for the error naming what was asked without a user. */
const describe = (requests: ImpersonationRequest[]) =>
  `[${requests.map((r) => `{${r.kind} ${r.namespace ?? ''} ${r.name} ${''} ${r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io/v1' : ''} ${''} ${r.key ?? ''}}`).join(' ')}]`;

/** A header value's percent-encoded bytes decoded, as kube's url.PathUnescape (the raw key when it is malformed). */
function unescapeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * The impersonation headers of a request, as kube reads them (buildImpersonationRequests). `rawHeaders` (names and
 * values alternating, as received), when the transport gives them, tell whether there are any `Impersonate-Extra-`
 * headers without going through all of `headers` (which makes hono's node server build a whole Headers).
 */
function impersonationRequests(headers: Headers, rawHeaders?: readonly string[]): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = headers.get(USER) ?? '';
  if (user) {
    const parts = user.startsWith(SERVICE_ACCOUNT_PREFIX) ? user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':') : [];
    if (parts.length === 2 && parts[0] && parts[1]) out.push({ kind: 'ServiceAccount', namespace: parts[0], name: parts[1] });
    else out.push({ kind: 'User', name: user });
  }
  // Fetch joins repeated headers with ", "; group names never contain that, kube's clients send one header each.
  const groups = headers.get(GROUP);
  if (groups !== null) for (const group of groups.split(', ')) out.push({ kind: 'Group', name: group });
  for (const [name, value] of hasExtraHeaders(rawHeaders) ? headers : []) {
    if (!name.startsWith(EXTRA_PREFIX)) continue;
    const key = unescapeKey(name.slice(EXTRA_PREFIX.length).toLowerCase());
    for (const v of value.split(', ')) out.push({ kind: 'UserExtra', name: v, key });
  }
  const uid = headers.get(UID) ?? '';
  if (uid) out.push({ kind: 'UID', name: uid });
  if (!user && out.length) throw newBadRequest(`requested ${describe(out)} without impersonating a user`);
  return out;
}

/** Whether raw headers (names and values alternating) have an `Impersonate-Extra-` one; true when not given. */
function hasExtraHeaders(rawHeaders: readonly string[] | undefined): boolean {
  if (rawHeaders === undefined) return true;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length >= EXTRA_PREFIX.length && name.slice(0, EXTRA_PREFIX.length).toLowerCase() === EXTRA_PREFIX) return true;
  }
  return false;
}

/**
 * kube's WithImpersonation filter: a request carrying `Impersonate-User` (and optionally `Impersonate-Group`,
 * `Impersonate-Uid`, `Impersonate-Extra-<key>`) runs as that user once the requester is allowed the `impersonate`
 * verb on each thing it asks for (users, serviceaccounts, groups, uids, userextras/<key>; resourceNames apply);
 * otherwise 403 with kube's message. Groups given are the authority (plus system:authenticated); a service
 * account without groups gets its fixed groups. Returns the user to run as, the requester's own when nothing is
 * asked for.
 */
export async function impersonate(requester: UserInfo, headers: Headers, authorizer: Authorizer, rawHeaders?: readonly string[]): Promise<UserInfo> {
  const requests = impersonationRequests(headers, rawHeaders);
  if (!requests.length) return requester;
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let username = '';
  let uid: string | undefined;
  let groups: string[] = [];
  // A Map: extra keys come from header names, and `__proto__` is one like any other.
  const extra = new Map<string, string[]>();
  for (const request of requests) {
    const attributes: AuthorizationAttributes = {
      user: requester, verb: 'impersonate', resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1',
      resource: '', subresource: '', namespace: request.namespace ?? '', name: request.name,
    };
    switch (request.kind) {
      case 'ServiceAccount':
        attributes.resource = 'serviceaccounts';
        username = `${SERVICE_ACCOUNT_PREFIX}${request.namespace}:${request.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${request.namespace}`];
        break;
      case 'User':
        attributes.resource = 'users';
        username = request.name;
        break;
      case 'Group':
        attributes.resource = 'groups';
        groups.push(request.name);
        break;
      case 'UserExtra':
        Object.assign(attributes, { apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: request.key! });
        extra.set(request.key!, [...(extra.get(request.key!) ?? []), request.name]);
        break;
      case 'UID':
        Object.assign(attributes, { apiGroup: AUTHENTICATION_GROUP, resource: 'uids' });
        uid = request.name;
        break;
    }
    const decision = await authorizer.authorize(attributes);
    if (decision.decision !== 'allow') throw forbiddenError(attributes, decision.reason);
  }
  if (username !== ANONYMOUS.username) {
    if (!groups.includes(AUTHENTICATED_GROUP) && !groups.includes(UNAUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP);
  } else if (!groups.includes(UNAUTHENTICATED_GROUP)) {
    groups.push(UNAUTHENTICATED_GROUP);
  }
  return { username, groups, ...(uid ? { uid } : {}), ...(extra.size ? { extra: Object.fromEntries(extra) } : {}) };
}
