import { describe, expect, it } from 'vitest';
import { createAccessFilter } from '../filter.js';
import { unionAuthorizer } from '../union.js';
import type { AuthorizationAttributes } from '../types.js';
import { delegatingAuthorization } from './options.js';
import type { RestClient } from './rest-client.js';
import { subjectAccessReviewAuthorizer } from './subject-access-review.js';

type Status = { allowed: boolean; denied?: boolean; reason?: string };

function fakeMainServer(decide: (spec: Record<string, unknown>) => Status) {
  const specs: Record<string, unknown>[] = [];
  let down = false;
  const client: RestClient = {
    async get() {
      throw new Error('unexpected');
    },
    async post(path, body) {
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
      expect(path).toBe('/apis/authorization.k8s.io/v1/subjectaccessreviews');
      const spec = (body as { spec: Record<string, unknown> }).spec;
      specs.push(spec);
      return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: decide(spec) };
    },
    close() {},
  };
  return { client, specs, setDown: (value: boolean) => (down = value) };
}

const alice = { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const listFlunders: AuthorizationAttributes = {
  user: alice,
  verb: 'list',
  resourceRequest: true,
  path: '/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders',
  apiGroup: 'wardle.example.com',
  apiVersion: 'v1alpha1',
  resource: 'flunders',
  subresource: '',
  namespace: 'ns',
  name: '',
};

describe('subjectAccessReviewAuthorizer', () => {
  it('sends the resource attributes and the whole user, and follows the answer', async () => {
    const main = fakeMainServer(() => ({ allowed: true, reason: 'RBAC: allowed' }));
    const authz = subjectAccessReviewAuthorizer({ client: main.client });
    expect(await authz.authorize(listFlunders)).toEqual({ decision: 'allow', reason: 'RBAC: allowed' });
    expect(main.specs[0]).toEqual({
      user: 'alice',
      uid: 'u1',
      groups: ['dev', 'system:authenticated'],
      extra: { scopes: ['a'] },
      resourceAttributes: { namespace: 'ns', verb: 'list', group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders', subresource: '', name: '' },
    });
  });

  it('sends non-resource attributes for paths', async () => {
    const main = fakeMainServer(() => ({ allowed: false }));
    const authz = subjectAccessReviewAuthorizer({ client: main.client });
    const attrs = { ...listFlunders, resourceRequest: false, path: '/openapi/v2', verb: 'get' };
    expect(await authz.authorize(attrs)).toEqual({ decision: 'no-opinion' });
    expect(main.specs[0].nonResourceAttributes).toEqual({ path: '/openapi/v2', verb: 'get' });
    expect(main.specs[0].resourceAttributes).toBeUndefined();
  });

  it('denies when told so, and caches allows and denies for 10 s by the whole request (not across users)', async () => {
    let now = 0;
    const main = fakeMainServer((spec) => (spec.user === 'alice' ? { allowed: true } : { allowed: false, denied: true, reason: 'no' }));
    const authz = subjectAccessReviewAuthorizer({ client: main.client, now: () => now });
    const bob = { ...listFlunders, user: { username: 'bob', groups: [] } };
    expect((await authz.authorize(listFlunders)).decision).toBe('allow');
    expect(await authz.authorize(bob)).toEqual({ decision: 'deny', reason: 'no' });
    expect((await authz.authorize(listFlunders)).decision).toBe('allow');
    expect((await authz.authorize(bob)).decision).toBe('deny');
    expect(main.specs).toHaveLength(2);
    now = 10_001;
    await authz.authorize(bob);
    expect(main.specs).toHaveLength(3);
  });

  it('never allows when the main server cannot be asked: the request is answered 500', async () => {
    const main = fakeMainServer(() => ({ allowed: true }));
    main.setDown(true);
    const authz = subjectAccessReviewAuthorizer({ client: main.client });
    const decision = await authz.authorize(listFlunders);
    expect(decision.decision).toBe('no-opinion');
    expect(decision.evaluationError).toMatch(/ECONNREFUSED/);
    const filter = createAccessFilter({ authenticators: [() => alice], anonymous: false, authorizer: unionAuthorizer(delegatingAuthorization({ client: main.client })) });
    await expect(filter(new Request('https://x/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders'))).rejects.toMatchObject({ status: { code: 500 } });
    // nothing was cached: once it is back, its answer counts
    main.setDown(false);
    expect((await authz.authorize(listFlunders)).decision).toBe('allow');
  });
});

describe('delegatingAuthorization', () => {
  const main = fakeMainServer(() => ({ allowed: false, reason: 'nobody may' }));
  const authorizer = unionAuthorizer(delegatingAuthorization({ client: main.client }));
  const filter = (user: typeof alice | { username: string; groups: string[] }) =>
    createAccessFilter({ authenticators: [() => user], anonymous: false, authorizer });

  it('allows health checks and system:masters without asking', async () => {
    const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    for (const path of ['/healthz', '/readyz', '/livez']) await filter(anonymous)(new Request(`https://x${path}`));
    await filter({ username: 'admin', groups: ['system:masters'] })(new Request('https://x/apis/wardle.example.com/v1alpha1/flunders'));
    expect(main.specs).toHaveLength(0);
  });

  it('answers a refused request 403 with kube message and the main server reason', async () => {
    await expect(filter(alice)(new Request('https://x/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders'))).rejects.toMatchObject({
      status: {
        code: 403,
        reason: 'Forbidden',
        message: 'flunders.wardle.example.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "ns": nobody may',
      },
    });
    await expect(filter(alice)(new Request('https://x/healthz/etcd'))).rejects.toMatchObject({ status: { code: 403 } });
  });
});
