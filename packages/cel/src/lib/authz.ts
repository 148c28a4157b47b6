// kube's authorization library (library/authz.go, with the AuthorizeWithSelectors additions): `authorizer.path(p)`,
// `authorizer.group(g).resource(r).subresource(s).namespace(ns).name(n).check(verb)`, `authorizer.serviceAccount(ns,
// name)`, and a decision's `allowed()`, `reason()`, `errored()`, `error()`.
//
// kube's authorizer answers synchronously; Kapi's is async while CEL evaluation is sync. So an authorizer value
// carries an oracle that answers from decisions already known, and `check` on an unknown one records it and fails
// the evaluation with AuthorizationPending: the caller fetches the pending decisions and evaluates again.
import { celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { isDNS1123Label, isDNS1123Subdomain } from '@kapi/apimachinery';
import { AUTHORIZER, DECISION, GROUP_CHECK, PATH_CHECK, RESOURCE_CHECK, type OpaqueType } from '../opaque.js';

/** The user a check is made for (kube's user.Info; the shape of `request.userInfo`). */
export interface AuthorizationUser {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** kube's authorizer.AttributesRecord of a CEL authorization check (APIVersion is always `*`). */
export interface AuthorizationAttributes {
  user: AuthorizationUser;
  verb: string;
  resourceRequest: boolean;
  /** The URL path, for `authorizer.path(p)` checks. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The raw `fieldSelector(...)` of the check, when one was given. */
  fieldSelector?: string;
  /** The raw `labelSelector(...)` of the check, when one was given. */
  labelSelector?: string;
}

/** An authorizer's answer (the shape of @kapi/apiserver's Decision). */
export interface AuthorizationDecision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason?: string;
  /** The authorizer failed (kube's `err`): `errored()` is true and `error()` returns it. */
  evaluationError?: string;
}

/** Answers checks from known decisions; undefined for a check not yet decided (which it records as pending). */
export interface AuthorizationOracle {
  decide(attributes: AuthorizationAttributes): AuthorizationDecision | undefined;
}

/** Thrown by `check` for a decision not yet known: evaluate again once the oracle knows it. */
export class AuthorizationPending extends Error {
  constructor() {
    super('authorization check pending');
  }
}

interface AuthorizerData {
  user: AuthorizationUser;
  oracle: AuthorizationOracle;
}
interface ResourceData {
  authz: AuthorizerData;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}
type DecisionData = AuthorizationDecision;

// The values' data, keyed by their messages (the opaque message only carries a text for equality).
const data = new WeakMap<object, unknown>();

function wrap<T>(type: OpaqueType, value: T, text: string): ReflectMessage {
  const m = type.make(text);
  data.set(m.message, value);
  return m;
}
const unwrap = <T>(v: ReflectMessage): T => data.get(v.message) as T;

/** A CEL `authorizer` value for `user`, answering checks through `oracle`. */
export function authorizerValue(user: AuthorizationUser, oracle: AuthorizationOracle): ReflectMessage {
  return wrap<AuthorizerData>(AUTHORIZER, { user, oracle }, `authorizer:${user.username}`);
}

/** The resource check of `authorizer.requestResource`: the request's group, resource, subresource, namespace, name. */
export function requestResourceValue(
  user: AuthorizationUser,
  oracle: AuthorizationOracle,
  r: { group: string; resource: string; subresource: string; namespace: string; name: string },
): ReflectMessage {
  return resourceCheck({ authz: { user, oracle }, fieldSelector: '', labelSelector: '', ...r });
}

const resourceCheck = (d: ResourceData) => wrap(RESOURCE_CHECK, d, JSON.stringify({ ...d, authz: d.authz.user.username }));

/** kube's serviceaccount.ServiceAccountInfo.UserInfo() of a service account without pod or node. */
function serviceAccountUser(namespace: string, name: string): AuthorizationUser {
  return { username: `system:serviceaccount:${namespace}:${name}`, uid: '', groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

function decide(authz: AuthorizerData, attributes: AuthorizationAttributes): ReflectMessage {
  const d = authz.oracle.decide(attributes);
  if (!d) throw new AuthorizationPending();
  return wrap<DecisionData>(DECISION, d, JSON.stringify(d));
}

const { STRING, BOOL } = CelScalar;
const A = AUTHORIZER.celType;
const P = PATH_CHECK.celType;
const G = GROUP_CHECK.celType;
const R = RESOURCE_CHECK.celType;
const D = DECISION.celType;

const withField = (field: keyof ResourceData) =>
  function (this: ReflectMessage, value: string): ReflectMessage {
    return resourceCheck({ ...unwrap<ResourceData>(this), [field]: value });
  };

/** The authz and authzSelectors libraries. */
export const authzLibrary: CelFunc[] = [
  celMethod('path', A, [STRING], P, function (path) {
    if (path.trim().length === 0) throw new Error('path must not be empty');
    return wrap(PATH_CHECK, { authz: unwrap<AuthorizerData>(this), path }, path);
  }),
  celMethod('group', A, [STRING], G, function (group) {
    return wrap(GROUP_CHECK, { authz: unwrap<AuthorizerData>(this), group }, group);
  }),
  celMethod('serviceAccount', A, [STRING, STRING], A, function (namespace, name) {
    if (isDNS1123Subdomain(name).length > 0) throw new Error('Invalid service account name');
    if (isDNS1123Label(namespace).length > 0) throw new Error('Invalid service account namespace');
    return authorizerValue(serviceAccountUser(namespace, name), unwrap<AuthorizerData>(this).oracle);
  }),
  celMethod('resource', G, [STRING], R, function (resource) {
    if (resource.trim().length === 0) throw new Error('resource must not be empty');
    const g = unwrap<{ authz: AuthorizerData; group: string }>(this);
    return resourceCheck({ authz: g.authz, group: g.group, resource, subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' });
  }),
  celMethod('subresource', R, [STRING], R, withField('subresource')),
  celMethod('namespace', R, [STRING], R, withField('namespace')),
  celMethod('name', R, [STRING], R, withField('name')),
  celMethod('fieldSelector', R, [STRING], R, withField('fieldSelector')),
  celMethod('labelSelector', R, [STRING], R, withField('labelSelector')),
  celMethod('check', P, [STRING], D, function (verb) {
    const p = unwrap<{ authz: AuthorizerData; path: string }>(this);
    return decide(p.authz, {
      user: p.authz.user,
      verb,
      resourceRequest: false,
      path: p.path,
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
    });
  }),
  celMethod('check', R, [STRING], D, function (verb) {
    const r = unwrap<ResourceData>(this);
    return decide(r.authz, {
      user: r.authz.user,
      verb,
      resourceRequest: true,
      path: '',
      apiGroup: r.group,
      apiVersion: '*',
      resource: r.resource,
      subresource: r.subresource,
      namespace: r.namespace,
      name: r.name,
      ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}),
      ...(r.labelSelector ? { labelSelector: r.labelSelector } : {}),
    });
  }),
  celMethod('allowed', D, [], BOOL, function () {
    return unwrap<DecisionData>(this).decision === 'allow';
  }),
  celMethod('reason', D, [], STRING, function () {
    return unwrap<DecisionData>(this).reason ?? '';
  }),
  celMethod('errored', D, [], BOOL, function () {
    return unwrap<DecisionData>(this).evaluationError !== undefined;
  }),
  celMethod('error', D, [], STRING, function () {
    return unwrap<DecisionData>(this).evaluationError ?? '';
  }),
];

/** kube's runtime cost of the authz functions (library/cost.go CallCost), by function name. */
export const AUTHZ_CALL_COSTS: ReadonlyMap<string, number> = new Map([
  ['check', 350_000],
  ...['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'error', 'errored'].map((n) => [n, 1] as [string, number]),
]);
