import { createMemoryBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import {
  alwaysDeny,
  createApiServer,
  privilegedGroups,
  rbacAuthorizer,
  tokenFileAuthenticator,
  x509Authenticator,
  type AdmissionPlugin,
  type ApiServerOptions,
  type Authorizer,
  type FetchEnv,
  type UserInfo,
} from '../src/index.js';
import { ALL_GROUPS, configMap, dataPlugin } from './harness.js';

const TOKENS = 'jane-token,jane,uid-jane,"dev,qa"\nbob-token,bob,uid-bob\n';
const ADMIN_CERT: FetchEnv = { peerCertificate: { subject: { CN: 'kapi-admin', O: 'system:masters' } } };

async function serve(options: Partial<ApiServerOptions> = {}) {
  const server = createApiServer({
    storage: createMemoryBackend(),
    plugins: ALL_GROUPS.map(dataPlugin),
    authenticators: [x509Authenticator(), tokenFileAuthenticator(TOKENS)],
    ...options,
  });
  await server.start();
  const req = async (method: string, path: string, opts: { body?: unknown; token?: string; env?: FetchEnv; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }), opts.env);
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  };
  return { server, req };
}

const CM = '/api/v1/namespaces/default/configmaps';
const review = (group: string, kind: string, spec: unknown) => ({ apiVersion: `${group}/v1`, kind, spec });

describe('authentication', () => {
  it('runs requests as the client certificate or token user, with system:authenticated', async () => {
    const { req } = await serve();
    const whoami = (opts: { token?: string; env?: FetchEnv }) =>
      req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, ...opts });
    expect((await whoami({ env: ADMIN_CERT })).body.status.userInfo).toEqual({ username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
    expect((await whoami({ token: 'jane-token' })).body.status.userInfo).toEqual({ username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] });
    expect((await whoami({})).body.status.userInfo).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('a client certificate that did not verify against the client CA is 401, not anonymous', async () => {
    const { req } = await serve();
    const res = await req('GET', '/version', { env: { peerCertificateError: 'unable to verify the first certificate' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    // A valid token beside it still authenticates (kube's union of authenticators).
    expect((await req('GET', '/version', { token: 'bob-token', env: { peerCertificateError: 'x' } })).status).toBe(200);
  });

  it('a bad token is 401 Unauthorized, whatever the path', async () => {
    const { req } = await serve();
    for (const path of [CM, '/healthz', '/api']) {
      const res = await req('GET', path, { token: 'nope' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
  });

  it('--anonymous-auth=false: no credentials is 401; credentials work', async () => {
    const { req } = await serve({ anonymousAuth: false });
    expect((await req('GET', '/version')).status).toBe(401);
    expect((await req('GET', CM)).body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    expect((await req('GET', CM, { token: 'bob-token' })).status).toBe(200);
    expect((await req('GET', '/version', { env: ADMIN_CERT })).status).toBe(200);
  });

  it('admission sees the authenticated user', async () => {
    const seen: UserInfo[] = [];
    const record: AdmissionPlugin = { name: 'Record', validate: (attrs) => void seen.push(attrs.user) };
    const { req } = await serve({ admission: [record] });
    expect((await req('POST', CM, { body: configMap('a'), token: 'jane-token' })).status).toBe(201);
    expect(seen.at(-1)).toEqual({ username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] });
  });
});

describe('authorization', () => {
  it('AlwaysDeny: every request, resource or not, is 403 Forbidden with kube\'s message', async () => {
    const { req } = await serve({ authorizers: [alwaysDeny()] });
    const list = await req('GET', CM);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
    expect((await req('GET', `${CM}/x`, { token: 'jane-token' })).body.message).toBe(
      'configmaps "x" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
    expect((await req('PUT', '/apis/apps/v1/namespaces/ns/deployments/d/scale', { body: {} })).body.message).toBe(
      'deployments.apps "d" is forbidden: User "system:anonymous" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns": Everything is forbidden.',
    );
    for (const path of ['/healthz', '/readyz', '/version', '/api', '/apis', '/openapi/v2', '/openapi/v3']) {
      const res = await req('GET', path);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(`forbidden: User "system:anonymous" cannot get path "${path}": Everything is forbidden.`);
    }
  });

  it('system:masters passes before the modes, as kube-apiserver\'s superuser authorizer', async () => {
    const { req } = await serve({ authorizers: [privilegedGroups('system:masters'), alwaysDeny()] });
    expect((await req('POST', CM, { body: configMap('a'), env: ADMIN_CERT })).status).toBe(201);
    expect((await req('GET', `${CM}/a`, { token: 'jane-token' })).status).toBe(403);
  });

  it('is asked with the request attributes of kube', async () => {
    const asked: string[] = [];
    const recorder: Authorizer = {
      name: 'Recorder',
      authorize: (a) => {
        asked.push(a.resourceRequest ? `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ns=${a.namespace} name=${a.name}` : `${a.verb} ${a.path}`);
        return { decision: 'allow' };
      },
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
    };
    const { server, req } = await serve({ authorizers: [recorder] });
    await req('POST', CM, { body: configMap('a') });
    const watch = await server.fetch(new Request(`http://x${CM}?watch=true&fieldSelector=metadata.name%3Da`));
    await watch.body?.cancel();
    await req('DELETE', CM);
    await req('GET', '/livez');
    expect(asked).toEqual(['create /configmaps ns=default name=', 'watch /configmaps ns=default name=a', 'deletecollection /configmaps ns=default name=', 'get /livez']);
  });
});

/** Lets everyone create access reviews (what kube's system:basic-user and the admin role grant). */
const reviewers: Authorizer = {
  name: 'Reviewers',
  authorize: (a) => (a.verb === 'create' && a.resource.endsWith('reviews') ? { decision: 'allow' } : { decision: 'no-opinion' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/** Allows jane to get pods in namespace `dev`, and nothing else; reports that rule. */
const janeGetsPods: Authorizer = {
  name: 'Jane',
  authorize: (a) =>
    a.user.username === 'jane' && a.verb === 'get' && a.resource === 'pods' && a.namespace === 'dev'
      ? { decision: 'allow', reason: 'jane may' }
      : a.user.username === 'mallory'
        ? { decision: 'deny', reason: 'not mallory' }
        : { decision: 'no-opinion' },
  rulesFor: (user, namespace) => ({
    resourceRules: user.username === 'jane' && namespace === 'dev' ? [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] : [],
    nonResourceRules: [],
    incomplete: false,
  }),
};

describe('access reviews answered by the authorizers', () => {
  const AUTHZ = 'authorization.k8s.io';
  it('SubjectAccessReview: the spec\'s user and groups', async () => {
    const { req } = await serve({ authorizers: [reviewers, janeGetsPods] });
    const sar = (spec: unknown) => req('POST', `/apis/${AUTHZ}/v1/subjectaccessreviews`, { body: review(AUTHZ, 'SubjectAccessReview', spec) });
    const pods = { namespace: 'dev', verb: 'get', resource: 'pods' };
    const allowed = await sar({ user: 'jane', resourceAttributes: pods });
    expect(allowed.status).toBe(201);
    expect(allowed.body.status).toEqual({ allowed: true, reason: 'jane may' });
    expect((await sar({ user: 'bob', resourceAttributes: pods })).body.status).toEqual({ allowed: false });
    expect((await sar({ user: 'mallory', groups: ['x'], resourceAttributes: pods })).body.status).toEqual({ allowed: false, denied: true, reason: 'not mallory' });
    expect((await sar({ user: 'jane', nonResourceAttributes: { path: '/healthz', verb: 'get' } })).body.status).toEqual({ allowed: false });

    const invalid = await sar({ resourceAttributes: pods });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
    expect((await sar({ user: 'jane' })).status).toBe(422);
  });

  it('LocalSubjectAccessReview: in the namespace of the URL', async () => {
    const { req } = await serve({ authorizers: [reviewers, janeGetsPods] });
    const lsar = (ns: string, spec: unknown) => req('POST', `/apis/${AUTHZ}/v1/namespaces/${ns}/localsubjectaccessreviews`, { body: review(AUTHZ, 'LocalSubjectAccessReview', spec) });
    expect((await lsar('dev', { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods' } })).body.status).toEqual({ allowed: true, reason: 'jane may' });
    expect((await lsar('dev', { user: 'jane', resourceAttributes: { namespace: 'dev', verb: 'get', resource: 'pods' } })).body).toMatchObject({
      metadata: { namespace: 'dev' },
      status: { allowed: true },
    });
    const mismatch = await lsar('default', { user: 'jane', resourceAttributes: { namespace: 'dev', verb: 'get', resource: 'pods' } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toContain('spec.resourceAttributes.namespace: Invalid value: "dev": must match metadata.namespace');
  });

  it('SelfSubjectAccessReview and SelfSubjectRulesReview: the requesting user', async () => {
    const { req } = await serve({ authorizers: [janeGetsPods] });
    const ssar = (token: string | undefined, resourceAttributes: unknown) =>
      req('POST', `/apis/${AUTHZ}/v1/selfsubjectaccessreviews`, { token, body: review(AUTHZ, 'SelfSubjectAccessReview', { resourceAttributes }) });
    // The review itself must be allowed: let everyone create reviews, as kube's system:basic-user does.
    expect((await ssar('jane-token', { namespace: 'dev', verb: 'get', resource: 'pods' })).status).toBe(403);

    const basicUser: Authorizer = {
      name: 'BasicUser',
      authorize: (a) => (a.verb === 'create' && a.resource.startsWith('self') ? { decision: 'allow' } : { decision: 'no-opinion' }),
      rulesFor: () => ({ resourceRules: [{ verbs: ['create'], apiGroups: [AUTHZ], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }], nonResourceRules: [], incomplete: false }),
    };
    const { req: req2 } = await serve({ authorizers: [basicUser, janeGetsPods] });
    const ssar2 = (token: string | undefined, resourceAttributes: unknown) =>
      req2('POST', `/apis/${AUTHZ}/v1/selfsubjectaccessreviews`, { token, body: review(AUTHZ, 'SelfSubjectAccessReview', { resourceAttributes }) });
    expect((await ssar2('jane-token', { namespace: 'dev', verb: 'get', resource: 'pods' })).body.status).toEqual({ allowed: true, reason: 'jane may' });
    expect((await ssar2('bob-token', { namespace: 'dev', verb: 'get', resource: 'pods' })).body.status).toEqual({ allowed: false });
    expect((await ssar2(undefined, { namespace: 'dev', verb: 'get', resource: 'pods' })).body.status).toEqual({ allowed: false });

    const ssrr = (token: string, namespace?: string) =>
      req2('POST', `/apis/${AUTHZ}/v1/selfsubjectrulesreviews`, { token, body: review(AUTHZ, 'SelfSubjectRulesReview', namespace ? { namespace } : {}) });
    expect((await ssrr('jane-token', 'dev')).body.status).toEqual({
      resourceRules: [
        { verbs: ['create'], apiGroups: [AUTHZ], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
    const noNamespace = await ssrr('jane-token');
    expect([noNamespace.status, noNamespace.body.message]).toEqual([400, 'no namespace on request']);
  });

  it('AlwaysAllow reports the * rules; SSAR allows', async () => {
    const { req } = await serve();
    const rules = await req('POST', `/apis/${AUTHZ}/v1/selfsubjectrulesreviews`, { body: review(AUTHZ, 'SelfSubjectRulesReview', { namespace: 'default' }) });
    expect(rules.body.status).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const ssar = await req('POST', `/apis/${AUTHZ}/v1/selfsubjectaccessreviews`, { body: review(AUTHZ, 'SelfSubjectAccessReview', { resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'x' } }) });
    expect(ssar.body.status).toEqual({ allowed: true });
  });

  it('TokenReview authenticates spec.token', async () => {
    const { req } = await serve();
    const tr = (token: string) => req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: review('authentication.k8s.io', 'TokenReview', { token }) });
    expect((await tr('jane-token')).body.status).toEqual({
      authenticated: true,
      user: { username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] },
    });
    expect((await tr('nope')).body.status).toEqual({ authenticated: false, error: 'invalid bearer token' });
    expect((await tr('')).status).toBe(400);
  });
});

describe('RBAC mode', () => {
  it('bootstraps kube\'s policy: system:masters is cluster-admin, everyone reads /healthz, anonymous lists nothing', async () => {
    const { req } = await serve({ authorizers: [rbacAuthorizer()] });
    expect((await req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/cluster-admin', { env: ADMIN_CERT })).body).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'Group', name: 'system:masters' }],
    });
    expect((await req('POST', CM, { body: configMap('a'), env: ADMIN_CERT })).status).toBe(201);
    expect((await req('GET', '/healthz')).status).toBe(200);
    const denied = await req('GET', CM);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect((await req('GET', '/api', { token: 'bob-token' })).status).toBe(200);
    expect((await req('GET', CM, { token: 'bob-token' })).status).toBe(403);
  });

  it('defaults are unchanged: anonymous and AlwaysAllow', async () => {
    const server = createApiServer({ storage: createMemoryBackend(), plugins: ALL_GROUPS.map(dataPlugin) });
    await server.start();
    const res = await server.fetch(new Request(`http://x${CM}`));
    expect(res.status).toBe(200);
  });
});
