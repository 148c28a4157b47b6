// RBAC escalation prevention (kube's pkg/registry/rbac policybased storage): who may write roles and bindings that
// grant more than they hold. Token users against a server in RBAC mode; an admin (system:masters) sets the scene.
import { createMemoryBackend } from '@kapi/storage';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiServer, groupPlugin, rbacAuthorizer, tokenFileAuthenticator, x509Authenticator, type FetchEnv } from '../src/index.js';
import { ALL_GROUPS, ALL_PLUGINS } from './harness.js';

const TOKENS = 'jane-token,jane,uid-jane,"dev"\n';
const ADMIN: FetchEnv = { peerCertificate: { subject: { CN: 'kapi-admin', O: 'system:masters' } } };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ROLES = `${RBAC}/namespaces/default/roles`;
const BINDINGS = `${RBAC}/namespaces/default/rolebindings`;
const JANE_GROUPS = '(groups=["dev" "system:authenticated"])';

const role = (name: string, rules: object[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
const binding = (name: string, kind: 'Role' | 'ClusterRole', roleName: string, user = 'jane') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
});

describe('RBAC escalation prevention', () => {
  let req: (method: string, path: string, body?: unknown, as?: 'jane' | 'admin', contentType?: string) => Promise<{ status: number; body: any }>;

  beforeEach(async () => {
    const server = createApiServer({
      storage: createMemoryBackend(),
      plugins: ALL_PLUGINS,
      authenticators: [x509Authenticator(), tokenFileAuthenticator(TOKENS)],
      authorizers: [rbacAuthorizer()],
    });
    await server.start();
    req = async (method, path, body, as = 'jane', contentType = 'application/json') => {
      const headers: Record<string, string> = as === 'jane' ? { authorization: 'Bearer jane-token' } : {};
      if (body !== undefined) headers['content-type'] = contentType;
      const res = await server.fetch(
        new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }),
        as === 'admin' ? ADMIN : undefined,
      );
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    // Jane manages roles and bindings in `default` and may read ConfigMaps there; nothing else.
    const manager = role('manager', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update', 'patch', 'get', 'list'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
    ]);
    expect((await req('POST', ROLES, manager, 'admin')).status).toBe(201);
    expect((await req('POST', BINDINGS, binding('jane-manager', 'Role', 'manager'), 'admin')).status).toBe(201);
  });

  it('refuses binding yourself to cluster-admin, naming the permissions not held, dry run included', async () => {
    const grab = binding('grab', 'ClusterRole', 'cluster-admin');
    const expected = {
      status: 403,
      body: expect.objectContaining({
        reason: 'Forbidden',
        message:
          `rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "jane" ${JANE_GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
      }),
    };
    expect(await req('POST', BINDINGS, grab)).toEqual(expected);
    expect(await req('POST', `${BINDINGS}?dryRun=All`, grab)).toEqual(expected);
    expect((await req('GET', '/api/v1/namespaces/default/secrets')).status).toBe(403);
  });

  it('refuses a Role granting what you do not hold (create, update, patch, apply); allows one within your rights', async () => {
    const star = role('star', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    const refused = await req('POST', ROLES, star);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      `roles.rbac.authorization.k8s.io "star" is forbidden: user "jane" ${JANE_GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    );
    const reader = role('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]);
    const created = await req('POST', ROLES, reader);
    expect(created.status).toBe(201);
    // Widening it: every write path is checked, and the missing verbs are listed together.
    const wider = { ...created.body, rules: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'delete'] }] };
    const put = await req('PUT', `${ROLES}/reader`, wider);
    expect(put.status).toBe(403);
    expect(put.body.message.split('\n').slice(1)).toEqual([
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "delete"]}',
    ]);
    const patch = await req('PATCH', `${ROLES}/reader`, { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }, 'jane', 'application/merge-patch+json');
    expect(patch.status).toBe(403);
    const apply = await req(
      'PATCH', `${ROLES}/applied?fieldManager=jane`,
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: applied\nrules:\n- apiGroups: [""]\n  resources: [secrets]\n  verbs: [get]\n',
      'jane', 'application/apply-patch+yaml',
    );
    expect(apply.status).toBe(403);
    // Changing something else of a role within your rights is fine.
    const relabel = await req('PATCH', `${ROLES}/reader`, { metadata: { labels: { team: 'a' } } }, 'jane', 'application/merge-patch+json');
    expect(relabel.status).toBe(200);
  });

  it('lets you bind a role whose rules you hold, and refuses a role that does not exist', async () => {
    await req('POST', ROLES, role('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
    expect((await req('POST', BINDINGS, binding('bob-reader', 'Role', 'reader', 'bob'))).status).toBe(201);
    const missing = await req('POST', BINDINGS, binding('ghost', 'Role', 'nope', 'bob'));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('rolebindings.rbac.authorization.k8s.io "ghost" is forbidden: role.rbac.authorization.k8s.io "nope" not found');
  });

  it('the escalate verb allows any rules in a Role; the bind verb allows binding exactly the roles it names', async () => {
    await req('POST', ROLES, role('powers', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['view'] },
    ]), 'admin');
    await req('POST', BINDINGS, binding('jane-powers', 'Role', 'powers'), 'admin');
    expect((await req('POST', ROLES, role('secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]))).status).toBe(201);
    expect((await req('POST', BINDINGS, binding('bob-view', 'ClusterRole', 'view', 'bob'))).status).toBe(201);
    expect((await req('POST', BINDINGS, binding('bob-edit', 'ClusterRole', 'edit', 'bob'))).status).toBe(403);
  });

  it('system:masters is exempt; a binding\'s roleRef never changes (422), whoever asks', async () => {
    const made = await req('POST', BINDINGS, binding('admin-made', 'ClusterRole', 'cluster-admin', 'bob'), 'admin');
    expect(made.status).toBe(201);
    const moved = await req('PUT', `${BINDINGS}/admin-made`, { ...made.body, roleRef: { ...made.body.roleRef, name: 'view' } }, 'admin');
    expect(moved.status).toBe(422);
    expect(moved.body.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "admin-made" is invalid: roleRef: Invalid value: ' +
        'rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
    );
  });

  it('an aggregationRule on a ClusterRole needs cluster-admin privileges', async () => {
    await req('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'role-writer' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
    }, 'admin');
    await req('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'jane-role-writer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'role-writer' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
    }, 'admin');
    const aggregated = await req('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'gather' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { anything: 'true' } }] },
      rules: [],
    });
    expect(aggregated.status).toBe(403);
    expect(aggregated.body.message).toBe('clusterroles.rbac.authorization.k8s.io "gather" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });

  it('a rule that multiplies out to millions is refused at once, as written, unless a held rule covers it whole', async () => {
    const list = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const huge = { apiGroups: list('g', 100), resources: list('r', 100), verbs: list('v', 10), resourceNames: list('n', 10) };
    const refused = await req('POST', ROLES, role('huge', [huge]));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('is attempting to grant RBAC permissions not currently held:\n{APIGroups:["g0" "g1"');
    // What she holds, in one multi-valued rule: covered whole.
    expect((await req('POST', ROLES, role('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]))).status).toBe(201);
    expect((await req('POST', ROLES, role('huge', [huge]), 'admin')).status).toBe(201);
  });
});
