import type { KubeObject } from '@kapi/apimachinery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_GROUPS, ALL_PLUGINS, startHarness, type Harness } from '../../../test/harness.js';
import { createAdmissionChain } from '../../admission/chain.js';
import { groupPlugin } from '../../plugin.js';
import { createResourceRegistry, type ResourceRegistry } from '../../registry/resources.js';
import { createStore, type RequestContext, type Store } from '../../registry/store.js';
import { createObjectStorage } from '../../storage/object-storage.js';
import type { AuthorizationAttributes } from '../types.js';
import { createRbacAuthorizer } from './authorizer.js';
import { BOOTSTRAP_CLUSTER_ROLES, ensureBootstrapPolicy, type BootstrapKind } from './bootstrap.js';
import { createStoreRbacSource } from './source.js';

const G = 'rbac.authorization.k8s.io';
const SYSTEM = { username: 'system:apiserver', groups: ['system:masters'] };
const sam = { username: 'system:serviceaccount:team:sam', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };

const attrs = (verb: string, resource: string, namespace: string, o: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: sam, verb, resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', resource, subresource: '', namespace, name: '', ...o,
});

describe('createStoreRbacSource', () => {
  let h: Harness;
  let registry: ResourceRegistry;
  let store: Store;
  const ctx = (kind: string, namespace = ''): RequestContext => ({
    entry: registry.byKind(G, 'v1', kind)!, namespace, user: SYSTEM, dryRun: false, subresource: '',
  });
  const create = (kind: string, obj: Record<string, unknown>, namespace = '') =>
    store.create(ctx(kind, namespace), { apiVersion: `${G}/v1`, kind, ...obj } as KubeObject);

  beforeAll(async () => {
    h = await startHarness();
    // A Store over the server's own storage: what the server stores is what the authorizer reads.
    registry = createResourceRegistry(ALL_PLUGINS);
    store = createStore({ storage: createObjectStorage(h.storage), admission: createAdmissionChain([]) });
  });
  afterAll(() => h.server.stop());

  it('stores the bootstrap policy (it passes validation) and creates only what is missing', async () => {
    const write = (kind: BootstrapKind, obj: { metadata: { namespace?: string } }) =>
      create(kind, obj as Record<string, unknown>, obj.metadata.namespace).then(() => undefined);
    // The server may already bootstrap the policy at start; either way every object exists afterwards.
    await ensureBootstrapPolicy(write);
    expect(await ensureBootstrapPolicy(write)).toEqual([]);
    const source = createStoreRbacSource(store, registry, SYSTEM);
    const names = (await source.listClusterRoles()).map((r) => r.metadata.name);
    expect(BOOTSTRAP_CLUSTER_ROLES.map((r) => r.metadata.name).filter((n) => !names.includes(n))).toEqual([]);
    expect((await source.listClusterRoleBindings()).map((b) => b.metadata.name)).toEqual(
      expect.arrayContaining(['cluster-admin', 'system:basic-user', 'system:discovery', 'system:public-info-viewer']),
    );
    expect((await source.listRoles('kube-system')).map((r) => r.metadata.name)).toContain('extension-apiserver-authentication-reader');
  });

  it('authorizes from Roles, ClusterRoles and bindings read through the Store', async () => {
    await create('Role', { metadata: { name: 'cm-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] }, 'team');
    await create('RoleBinding', {
      metadata: { name: 'sam-cm' },
      roleRef: { apiGroup: G, kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'sam' }],
    }, 'team');
    await create('RoleBinding', {
      metadata: { name: 'sam-view' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'sam', namespace: 'team' }],
    }, 'team');

    const source = createStoreRbacSource(store, registry, SYSTEM);
    const authz = createRbacAuthorizer(source);
    expect((await source.listRoleBindings('team')).map((b) => b.metadata.name)).toEqual(['sam-cm', 'sam-view']);
    expect((await source.getRole('team', 'cm-reader'))?.rules).toEqual([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]);
    expect(await source.getRole('team', 'missing')).toBeUndefined();
    expect(await source.getClusterRole('missing')).toBeUndefined();

    expect(await authz.authorize(attrs('list', 'configmaps', 'team'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "sam-cm/team" of Role "cm-reader" to ServiceAccount "sam/team"',
    });
    // view is aggregated from the stored system:aggregate-to-view at evaluation time.
    expect(await authz.authorize(attrs('watch', 'deployments', 'team', { apiGroup: 'apps' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "sam-view/team" of ClusterRole "view" to ServiceAccount "sam/team"',
    });
    expect((await authz.authorize(attrs('delete', 'configmaps', 'team'))).decision).toBe('no-opinion');
    expect((await authz.authorize(attrs('list', 'configmaps', 'default'))).decision).toBe('no-opinion');
    expect((await authz.authorize({ ...attrs('create', 'selfsubjectaccessreviews', ''), apiGroup: 'authorization.k8s.io' })).decision).toBe('allow');

    // A new ClusterRole labelled aggregate-to-view takes effect on the next request.
    const flunders = attrs('get', 'flunders', 'team', { apiGroup: 'wardle.example.com', name: 'f' });
    expect((await authz.authorize(flunders)).decision).toBe('no-opinion');
    await create('ClusterRole', {
      metadata: { name: 'wardle-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['wardle.example.com'], resources: ['flunders'] }],
    });
    expect((await authz.authorize(flunders)).decision).toBe('allow');

    expect((await authz.rulesFor(sam, 'team')).resourceRules.slice(2, 4)).toEqual([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'] },
    ]);
  });

  it('finds no policy when the RBAC group is not installed', async () => {
    const bare = createResourceRegistry(ALL_PLUGINS.filter((p) => p.definition.group !== G));
    const source = createStoreRbacSource(store, bare, SYSTEM);
    expect(await source.listClusterRoleBindings()).toEqual([]);
    expect(await source.getClusterRole('cluster-admin')).toBeUndefined();
  });
});
