// Impersonation (kube's WithImpersonation filter): Impersonate-User/-Group/-Uid/-Extra-* headers, each allowed by
// the `impersonate` verb, and the request then runs as the impersonated user.
import { createMemoryBackend } from '@kapi/storage';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiServer, rbacAuthorizer, tokenFileAuthenticator, x509Authenticator, type FetchEnv } from '../src/index.js';
import { ALL_GROUPS, dataPlugin } from './harness.js';

const TOKENS = 'jane-token,jane,uid-jane,"dev"\n';
const ADMIN: FetchEnv = { peerCertificate: { subject: { CN: 'kapi-admin', O: 'system:masters' } } };
const SECRETS = '/api/v1/namespaces/default/secrets';
const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

// Both ways a transport can hand the headers over: only the Request's Headers, or also Node's raw headers (names
// and values alternating, as received), which the filter reads names from.
describe.each([['Headers only', false], ['with raw headers', true]])('impersonation (%s)', (_, raw) => {
  let req: (method: string, path: string, headers?: Record<string, string>, as?: 'jane' | 'admin', body?: unknown) => Promise<{ status: number; body: any }>;
  let audit: any[];

  beforeEach(async () => {
    audit = [];
    const server = createApiServer({
      storage: createMemoryBackend(),
      plugins: ALL_GROUPS.map(dataPlugin),
      authenticators: [x509Authenticator(), tokenFileAuthenticator(TOKENS)],
      authorizers: [rbacAuthorizer()],
      audit: { write: (line) => void audit.push(JSON.parse(line)) },
    });
    await server.start();
    req = async (method, path, headers = {}, as = 'admin', body) => {
      const h: Record<string, string> = { ...headers, ...(as === 'jane' ? { authorization: 'Bearer jane-token' } : {}) };
      if (body !== undefined) h['content-type'] = 'application/json';
      const env: FetchEnv | undefined = as === 'admin' ? ADMIN : undefined;
      const rawHeaders = Object.entries(h).flat();
      const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) }), raw ? { ...env, rawHeaders } : env);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
  });

  it('an admin acting as alice gets alice\'s rights, not its own', async () => {
    expect((await req('GET', SECRETS)).status).toBe(200);
    const asAlice = await req('GET', SECRETS, { 'Impersonate-User': 'alice' });
    expect(asAlice.status).toBe(403);
    expect(asAlice.body.message).toBe('secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"');
  });

  it('runs as the user, groups, uid and extras given (plus system:authenticated), and audits both users', async () => {
    const who = await req('POST', WHOAMI, {
      'Impersonate-User': 'alice', 'Impersonate-Group': 'g1', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': 'view',
    }, 'admin', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(who.status).toBe(201);
    expect(who.body.status.userInfo).toEqual({ username: 'alice', uid: 'u-1', groups: ['g1', 'system:authenticated'], extra: { scopes: ['view'] } });
    const event = audit.find((e) => e.requestURI === WHOAMI && e.stage === 'ResponseComplete');
    expect(event.user.username).toBe('kapi-admin');
    expect(event.impersonatedUser).toMatchObject({ username: 'alice', groups: ['g1', 'system:authenticated'] });
    // Extra keys are data: __proto__ and constructor are keys like any other.
    const hostile = await req('POST', WHOAMI, {
      'Impersonate-User': 'alice', 'Impersonate-Extra-__proto__': 'a', 'Impersonate-Extra-Constructor': 'b',
    }, 'admin', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(hostile.status).toBe(201);
    expect(hostile.body.status.userInfo.extra).toEqual(JSON.parse('{"__proto__":["a"],"constructor":["b"]}'));
    const deniedHostile = await req('GET', SECRETS, { 'Impersonate-User': 'alice', 'Impersonate-Extra-__proto__': 'a' }, 'jane');
    expect(deniedHostile.status).toBe(403);
    // A service account gets its fixed groups when none are given.
    const sa = await req('POST', WHOAMI, { 'Impersonate-User': 'system:serviceaccount:team:bot' }, 'admin', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(sa.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:team:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
  });

  it('needs the impersonate verb on what is asked for (resourceNames honoured), else 403 with kube\'s message', async () => {
    const denied = await req('GET', SECRETS, { 'Impersonate-User': 'alice' }, 'jane');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('users "alice" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');

    await req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {}, 'admin', {
      metadata: { name: 'impersonate-alice' },
      rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice'] }],
    });
    await req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {}, 'admin', {
      metadata: { name: 'jane-impersonates-alice' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-alice' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
    });
    const whoAsAlice = await req('POST', WHOAMI, { 'Impersonate-User': 'alice' }, 'jane', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(whoAsAlice.body.status.userInfo).toEqual({ username: 'alice', groups: ['system:authenticated'] });
    expect((await req('GET', SECRETS, { 'Impersonate-User': 'bob' }, 'jane')).status).toBe(403);
    const group = await req('GET', SECRETS, { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' }, 'jane');
    expect(group.status).toBe(403);
    expect(group.body.message).toBe('groups "system:masters" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope');
    const extra = await req('GET', SECRETS, { 'Impersonate-User': 'alice', 'Impersonate-Extra-Scopes': 'all' }, 'jane');
    expect(extra.body.message).toBe(
      'userextras.authentication.k8s.io "all" is forbidden: User "jane" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('groups, uid or extras without a user are 400', async () => {
    const res = await req('GET', SECRETS, { 'Impersonate-Group': 'system:masters' }, 'jane');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^requested \[\{Group  system:masters .*\}\] without impersonating a user$/);
    // Only an extra, in any case: still 400, never the requester's own rights.
    for (const name of ['Impersonate-Extra-Scopes', 'IMPERSONATE-EXTRA-scopes', 'impersonate-extra-']) {
      const extra = await req('GET', SECRETS, { [name]: 'all' }, 'admin');
      expect(extra.status, name).toBe(400);
      expect(extra.body.message, name).toMatch(/^requested \[\{UserExtra  all .*\}\] without impersonating a user$/);
    }
  });
});
