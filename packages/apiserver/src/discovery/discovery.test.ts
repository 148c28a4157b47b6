import { describe, expect, it } from 'vitest';
import type { APIResource, GroupDefinition, ResourceInfo } from '@kapi/apimachinery';
import { group as apps } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as coordination } from '@kapi/api-coordination';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { group as rbac } from '@kapi/api-rbac';
import { group as wardle } from '@kapi/api-wardle';
import {
  apiGroup,
  apiGroupDiscoveryList,
  apiGroupList,
  apiResourceList,
  apiVersions,
  compareKubeAwareVersions,
  servedGroups,
  sortByVersionPriority,
  storageVersionHash,
} from './index.js';

const ALL: GroupDefinition[] = [wardle, rbac, policy, core, coordination, autoscaling, authorization, authentication, apps];
const served = servedGroups(ALL);
const find = (name: string) => served.find((g) => g.name === name)!;
const byName = (list: readonly APIResource[], name: string) => list.find((r) => r.name === name);

describe('servedGroups', () => {
  it('orders the core group first, then named groups by name', () => {
    expect(served.map((g) => g.name)).toEqual([
      '',
      'apps',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'autoscaling',
      'coordination.k8s.io',
      'policy',
      'rbac.authorization.k8s.io',
      'wardle.example.com',
    ]);
  });

  it('leaves out kinds without verbs (autoscaling/v1 Scale, policy/v1 Eviction)', () => {
    expect([...find('autoscaling').resources.keys()].sort()).toEqual(['v1', 'v2']);
    expect(find('autoscaling').versions).toEqual(['v2', 'v1']);
    expect(find('autoscaling').resources.get('v1')!.map((r) => r.plural)).toEqual(['horizontalpodautoscalers']);
    expect(find('policy').resources.get('v1')!.map((r) => r.plural)).toEqual(['poddisruptionbudgets']);
  });

  it('sorts versions by kube priority', () => {
    expect(sortByVersionPriority(['v1alpha1', 'v1', 'v2beta1', 'foo', 'v1beta2', 'v2', 'bar', 'v10'])).toEqual([
      'v10',
      'v2',
      'v1',
      'v2beta1',
      'v1beta2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
    expect(compareKubeAwareVersions('v1', 'v1')).toBe(0);
  });
});

describe('unaggregated discovery', () => {
  it('/api lists v1 and the address the client used', () => {
    expect(apiVersions(find(''), '127.0.0.1:6443')).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
    });
  });

  it('/apis lists every named group with its preferred version', () => {
    const list = apiGroupList(served);
    expect(list.kind).toBe('APIGroupList');
    expect(list.apiVersion).toBe('v1');
    expect(list.groups.map((g) => g.name)).not.toContain('');
    expect(list.groups.find((g) => g.name === 'apps')).toEqual({
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    expect(apiGroup(find('wardle.example.com'))).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'wardle.example.com',
      // Flunder is served in v1beta1 too, which sample-apiserver prefers (kube's version priority).
      versions: [
        { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' },
        { groupVersion: 'wardle.example.com/v1alpha1', version: 'v1alpha1' },
      ],
      preferredVersion: { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' },
    });
  });

  it('/api/v1 lists pods like kube-apiserver, with its subresources sorted by path', () => {
    const list = apiResourceList(find(''), 'v1')!;
    expect(list.kind).toBe('APIResourceList');
    expect(list.apiVersion).toBeUndefined(); // kube keeps the core list unversioned
    expect(list.groupVersion).toBe('v1');
    const names = list.resources.map((r) => r.name);
    expect(names).toEqual([...names].sort());
    expect(byName(list.resources, 'pods')).toEqual({
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
      storageVersionHash: 'xPOwRZ+Yhw8=',
    });
    expect(byName(list.resources, 'pods/status')).toEqual({
      name: 'pods/status',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    });
    expect(byName(list.resources, 'pods/eviction')).toEqual({
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    expect(byName(list.resources, 'pods/log')).toEqual({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    expect(byName(list.resources, 'pods/binding')?.kind).toBe('Binding');
    expect(byName(list.resources, 'serviceaccounts/token')).toMatchObject({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
    expect(byName(list.resources, 'namespaces/finalize')).toMatchObject({ namespaced: false, kind: 'Namespace', verbs: ['update'] });
    expect(names.indexOf('pods/status')).toBeLessThan(names.indexOf('secrets'));
    // a resource without short names or categories has neither field
    expect(byName(list.resources, 'secrets')).not.toHaveProperty('shortNames');
    expect(byName(list.resources, 'secrets')).not.toHaveProperty('categories');
  });

  it('/apis/apps/v1 lists deployments/scale as autoscaling/v1 Scale', () => {
    const list = apiResourceList(find('apps'), 'v1')!;
    expect(list).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
    expect(byName(list.resources, 'deployments')).toMatchObject({ shortNames: ['deploy'], categories: ['all'], storageVersionHash: '8aSe+NMegvE=' });
    expect(byName(list.resources, 'deployments/scale')).toEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    expect(list.resources.map((r) => r.name)).toEqual([
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ]);
  });

  it('answers undefined for a version the group does not serve', () => {
    expect(apiResourceList(find('apps'), 'v1beta1')).toBeUndefined();
  });

  it('computes kube storage version hashes', () => {
    expect(storageVersionHash('', 'v1', 'Pod')).toBe('xPOwRZ+Yhw8=');
    expect(storageVersionHash('apps', 'v1', 'DaemonSet')).toBe('dd7pWHUlMKQ=');
  });
});

describe('aggregated discovery (apidiscovery.k8s.io/v2)', () => {
  const coreDoc = apiGroupDiscoveryList(served.filter((g) => g.name === ''));
  const namedDoc = apiGroupDiscoveryList(served.filter((g) => g.name !== ''));

  it('wraps the groups in an APIGroupDiscoveryList', () => {
    expect(coreDoc.kind).toBe('APIGroupDiscoveryList');
    expect(coreDoc.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(coreDoc.metadata).toEqual({});
    expect(coreDoc.items).toHaveLength(1);
    expect(coreDoc.items[0].metadata).toEqual({});
    expect(namedDoc.items.map((g) => g.metadata?.name)).toEqual(apiGroupList(served).groups.map((g) => g.name));
    expect(namedDoc.items[0].versions?.[0].freshness).toBe('Current');
  });

  it('describes pods with responseKind, scope and nested subresources', () => {
    const pods = coreDoc.items[0].versions![0].resources!.find((r) => r.resource === 'pods')!;
    expect(pods).toMatchObject({
      resource: 'pods',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    expect(pods.subresources?.find((s) => s.subresource === 'status')).toEqual({
      subresource: 'status',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      verbs: ['get', 'patch', 'update'],
    });
    expect(pods.subresources?.find((s) => s.subresource === 'eviction')?.responseKind).toEqual({ group: 'policy', version: 'v1', kind: 'Eviction' });
    const deployments = namedDoc.items.find((g) => g.metadata?.name === 'apps')!.versions![0].resources!.find((r) => r.resource === 'deployments')!;
    expect(deployments.responseKind).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(deployments.subresources?.find((s) => s.subresource === 'scale')).toEqual({
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    });
    const nodes = coreDoc.items[0].versions![0].resources!.find((r) => r.resource === 'nodes')!;
    expect(nodes.scope).toBe('Cluster');
    const configmaps = coreDoc.items[0].versions![0].resources!.find((r) => r.resource === 'configmaps')!;
    expect(configmaps).not.toHaveProperty('subresources');
  });

  it('shows exactly the resources of the unaggregated lists', () => {
    for (const doc of [coreDoc, namedDoc]) {
      for (const g of doc.items) {
        const group = served.find((s) => s.name === (g.metadata?.name ?? ''))!;
        for (const v of g.versions!) {
          const flattened = v.resources!.flatMap((r) => [
            { name: r.resource, verbs: r.verbs, namespaced: r.scope === 'Namespaced', kind: r.responseKind!.kind },
            ...(r.subresources ?? []).map((s) => ({
              name: `${r.resource}/${s.subresource}`,
              verbs: s.verbs,
              namespaced: r.scope === 'Namespaced',
              kind: s.responseKind!.kind,
            })),
          ]);
          const legacy = apiResourceList(group, v.version)!.resources.map((r) => ({ name: r.name, verbs: r.verbs, namespaced: r.namespaced, kind: r.kind }));
          expect(flattened.sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(legacy);
        }
      }
    }
  });
});

describe('merging and edge cases', () => {
  const info = (over: Partial<ResourceInfo>): ResourceInfo => ({
    group: 'example.com',
    version: 'v1',
    kind: 'Widget',
    listKind: 'WidgetList',
    plural: 'widgets',
    singular: 'widget',
    scope: 'Namespaced',
    shortNames: [],
    categories: [],
    verbs: ['get', 'list'],
    subresources: {},
    printerColumns: [],
    protobuf: { message: '', listMessage: '' },
    patchMeta: {},
    ...over,
  });
  const def = (resources: ResourceInfo[]): GroupDefinition =>
    ({ group: 'example.com', packageName: 'x', versions: [], resources, validators: {}, fieldTree: {}, protobuf: {} }) as unknown as GroupDefinition;

  it('merges definitions of one group and prefers GA versions', () => {
    const groups = servedGroups([
      def([info({ version: 'v1beta1' })]),
      def([info({ version: 'v1' }), info({ version: 'v1', plural: 'gadgets', singular: 'gadget', kind: 'Gadget' })]),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0].versions).toEqual(['v1', 'v1beta1']);
    expect(apiGroup(groups[0]).preferredVersion).toEqual({ groupVersion: 'example.com/v1', version: 'v1' });
    // the storage version (the preferred one) names the hash in every version
    expect(apiResourceList(groups[0], 'v1beta1')!.resources[0].storageVersionHash).toBe(storageVersionHash('example.com', 'v1', 'Widget'));
  });

  it('lists a subresource whose kind is in the core group without a group field', () => {
    const groups = servedGroups([def([info({ subresources: { others: [{ name: 'binding', group: '', version: 'v1', kind: 'Binding', verbs: ['create'] }] } })])]);
    const entry = apiResourceList(groups[0], 'v1')!.resources[1];
    expect(entry).toEqual({ name: 'widgets/binding', singularName: '', namespaced: true, version: 'v1', kind: 'Binding', verbs: ['create'] });
    const sub = apiGroupDiscoveryList(groups).items[0].versions![0].resources![0].subresources![0];
    expect(sub.responseKind).toEqual({ group: '', version: 'v1', kind: 'Binding' });
  });
});
