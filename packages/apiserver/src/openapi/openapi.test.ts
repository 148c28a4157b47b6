import { describe, expect, it } from 'vitest';
import type { GroupDefinition } from '@kapi/apimachinery';
import { group as apps } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as coordination } from '@kapi/api-coordination';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { group as rbac } from '@kapi/api-rbac';
import { group as wardle } from '@kapi/api-wardle';
import { buildOpenAPIV3Documents, toValidOperationID, type OpenAPIV3Document } from './v3.js';
import { buildSwaggerDocument, toSwaggerSchema } from './v2.js';
import { createOpenAPIService } from './service.js';
import { danglingRefs, openAPI3Problems, swagger2Problems } from './testing.js';

type Json = Record<string, any>;

const GROUPS: GroupDefinition[] = [core, apps, authentication, authorization, autoscaling, coordination, policy, rbac, wardle];
const docs = buildOpenAPIV3Documents(GROUPS);
const doc = (path: string): Json => {
  const d = docs.get(path);
  if (!d) throw new Error(`no document ${path}`);
  return d as unknown as Json;
};
const operations = (d: Json) =>
  Object.entries<Json>(d.paths).flatMap(([path, item]) =>
    ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Json, item })),
  );
const paramNames = (params: Json[] | undefined) => (params ?? []).map((p) => p.name);

describe('OpenAPI v3 documents of the generated groups', () => {
  it('has a document per group-version, per group, and for api, apis and version', () => {
    const keys = [...docs.keys()];
    for (const key of [
      'api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'apis/autoscaling/v1', 'apis/coordination.k8s.io/v1',
      'apis/policy/v1', 'apis/rbac.authorization.k8s.io/v1', 'apis/authorization.k8s.io/v1', 'apis/authentication.k8s.io/v1',
      'apis/wardle.example.com', 'apis/wardle.example.com/v1alpha1', 'version',
    ]) {
      expect(keys).toContain(key);
    }
  });

  it('follows the basic rules of OpenAPI 3.0, and every $ref resolves within its own document', () => {
    for (const [key, d] of docs) {
      expect(openAPI3Problems(d), key).toEqual([]);
      expect(danglingRefs(d), key).toEqual([]);
    }
  });

  it('is deterministic', () => {
    const again = buildOpenAPIV3Documents([...GROUPS]);
    for (const [key, d] of docs) expect(JSON.stringify(again.get(key)), key).toBe(JSON.stringify(d));
  });

  it('describes apps/v1 as kube does: header, collection, item, all-namespaces, watch and scale paths', () => {
    const d = doc('apis/apps/v1');
    expect(d.openapi).toBe('3.0.0');
    expect(d.info).toEqual({ title: 'Kubernetes', version: 'v1.33.0' });
    expect(d.components.securitySchemes.BearerToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'authorization' });
    expect(Object.keys(d.paths)).toEqual(expect.arrayContaining([
      '/apis/apps/v1/',
      '/apis/apps/v1/deployments',
      '/apis/apps/v1/namespaces/{namespace}/deployments',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      '/apis/apps/v1/watch/deployments',
      '/apis/apps/v1/watch/namespaces/{namespace}/deployments',
      '/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}',
    ]));
    const ids = operations(d).map((o) => o.op.operationId);
    expect(ids).toEqual(expect.arrayContaining([
      'getAppsV1APIResources', 'listAppsV1NamespacedDeployment', 'createAppsV1NamespacedDeployment',
      'deleteAppsV1CollectionNamespacedDeployment', 'readAppsV1NamespacedDeployment', 'replaceAppsV1NamespacedDeployment',
      'patchAppsV1NamespacedDeployment', 'deleteAppsV1NamespacedDeployment', 'listAppsV1DeploymentForAllNamespaces',
      'watchAppsV1NamespacedDeploymentList', 'watchAppsV1NamespacedDeployment', 'watchAppsV1DeploymentListForAllNamespaces',
      'readAppsV1NamespacedDeploymentScale', 'replaceAppsV1NamespacedDeploymentScale', 'patchAppsV1NamespacedDeploymentScale',
      'readAppsV1NamespacedDeploymentStatus', 'patchAppsV1NamespacedReplicaSetStatus',
    ]));

    const collection = d.paths['/apis/apps/v1/namespaces/{namespace}/deployments'];
    expect(paramNames(collection.parameters)).toEqual(['namespace', 'pretty']);
    expect(collection.get).toMatchObject({
      'x-kubernetes-action': 'list', 'x-kubernetes-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' }, tags: ['apps_v1'],
    });
    expect(paramNames(collection.get.parameters)).toEqual([
      'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch',
      'sendInitialEvents', 'timeoutSeconds', 'watch',
    ]);
    expect(Object.keys(collection.get.responses['200'].content)).toEqual([
      'application/json', 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf',
      'application/vnd.kubernetes.protobuf;stream=watch', 'application/yaml',
    ]);
    expect(collection.get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentList' });
    expect(collection.post['x-kubernetes-action']).toBe('post');
    expect(paramNames(collection.post.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(collection.post.requestBody).toEqual({ content: { '*/*': { schema: { $ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment' } } }, required: true });
    expect(Object.keys(collection.post.responses)).toEqual(['200', '201', '202', '401']);
    expect(collection.delete['x-kubernetes-action']).toBe('deletecollection');
    expect(paramNames(collection.delete.parameters)).toContain('propagationPolicy');

    const item = d.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(paramNames(item.parameters)).toEqual(['name', 'namespace', 'pretty']);
    expect(item.parameters[0].description).toBe('name of the Deployment');
    expect(item.patch['x-kubernetes-action']).toBe('patch');
    expect(paramNames(item.patch.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(item.patch.requestBody.content)).toEqual([
      'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
    ]);
    expect(item.patch.requestBody.content['application/json-patch+json'].schema).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' });
    expect(paramNames(item.delete.parameters)).toEqual([
      'dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy',
    ]);
    expect(item.delete.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status');

    const scale = d.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    expect(scale.get['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
    expect(scale.put.requestBody.content['*/*'].schema).toEqual({ $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale' });
    expect(d.components.schemas['io.k8s.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'autoscaling', kind: 'Scale', version: 'v1' },
    ]);

    const watch = d.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}'];
    expect(watch.get['x-kubernetes-action']).toBe('watch');
    expect(watch.get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent');
    expect(paramNames(watch.parameters)).toContain('watch');
    expect(d.paths['/apis/apps/v1/watch/deployments'].get['x-kubernetes-action']).toBe('watchlist');
  });

  it('carries the kinds\' schemas with GroupVersionKinds, meta types and kube\'s $ref forms', () => {
    const schemas = doc('apis/apps/v1').components.schemas;
    expect(schemas['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    expect(schemas['io.k8s.api.apps.v1.DeploymentList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'DeploymentList', version: 'v1' }]);
    expect(schemas['io.k8s.api.apps.v1.DeploymentList'].properties.metadata).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }],
    });
    expect(schemas['io.k8s.api.apps.v1.Deployment'].properties.spec).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }],
      description: 'Specification of the desired behavior of the Deployment.',
    });
    for (const name of ['ObjectMeta', 'ListMeta', 'Status', 'DeleteOptions', 'WatchEvent', 'Patch', 'APIResourceList', 'Time']) {
      expect(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name).toBeDefined();
    }
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    const containers = schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
    expect(containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map' });
    expect(JSON.stringify(schemas)).not.toContain('x-kapi-');
    // Only what the paths reach: no Pod, which apps/v1 never refers to.
    expect(schemas['io.k8s.api.core.v1.Pod']).toBeUndefined();
  });

  it('describes the core group under /api/v1 with cluster-scoped kinds and subresources', () => {
    const d = doc('api/v1');
    const byId = new Map(operations(d).map((o) => [o.op.operationId, o]));
    expect(byId.get('listCoreV1NamespacedPod')?.path).toBe('/api/v1/namespaces/{namespace}/pods');
    expect(byId.get('listCoreV1PodForAllNamespaces')?.path).toBe('/api/v1/pods');
    expect(byId.get('createCoreV1NamespacedPod')?.method).toBe('post');
    expect(byId.get('readCoreV1Namespace')?.path).toBe('/api/v1/namespaces/{name}');
    expect(byId.get('listCoreV1Namespace')?.path).toBe('/api/v1/namespaces');
    expect(byId.get('replaceCoreV1NamespaceFinalize')?.path).toBe('/api/v1/namespaces/{name}/finalize');
    expect(byId.get('watchCoreV1NodeList')?.path).toBe('/api/v1/watch/nodes');
    expect(byId.get('readCoreV1NamespacedPodStatus')?.path).toBe('/api/v1/namespaces/{namespace}/pods/{name}/status');
    expect(byId.get('readCoreV1NamespacedPodLog')?.path).toBe('/api/v1/namespaces/{namespace}/pods/{name}/log');
    expect(byId.get('connectCoreV1PostNamespacedPodExec')?.op['x-kubernetes-action']).toBe('connect');
    expect(byId.get('connectCoreV1GetNamespacedPodProxyWithPath')?.path).toBe('/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}');
    const eviction = byId.get('createCoreV1NamespacedPodEviction')!;
    expect(eviction.path).toBe('/api/v1/namespaces/{namespace}/pods/{name}/eviction');
    expect(eviction.op['x-kubernetes-group-version-kind']).toEqual({ group: 'policy', kind: 'Eviction', version: 'v1' });
    expect(eviction.op.requestBody.content['*/*'].schema.$ref).toBe('#/components/schemas/io.k8s.api.policy.v1.Eviction');
    expect(d.components.schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(d.paths['/api/v1/namespaces'].delete).toBeUndefined(); // namespaces have no deletecollection
  });

  it('names operations of dotted groups as kube does', () => {
    expect(toValidOperationID('rbac.authorization', true)).toBe('RbacAuthorization');
    expect(toValidOperationID('wardle.example.com', false)).toBe('wardleExampleCom');
    const rbacIds = operations(doc('apis/rbac.authorization.k8s.io/v1')).map((o) => o.op.operationId);
    expect(rbacIds).toContain('listRbacAuthorizationV1ClusterRole');
    expect(rbacIds).toContain('createRbacAuthorizationV1NamespacedRoleBinding');
    const sar = operations(doc('apis/authorization.k8s.io/v1')).find((o) => o.op.operationId === 'createAuthorizationV1SubjectAccessReview');
    expect(sar?.path).toBe('/apis/authorization.k8s.io/v1/subjectaccessreviews');
    expect(operations(doc('apis/authorization.k8s.io/v1')).map((o) => o.op.operationId)).toContain('createAuthorizationV1NamespacedLocalSubjectAccessReview');
  });

  it('serves wardle, a group outside k8s.io, from its own schemas', () => {
    const d = doc('apis/wardle.example.com/v1alpha1');
    const ids = operations(d).map((o) => o.op.operationId);
    expect(ids).toContain('listWardleExampleComV1alpha1NamespacedFlunder');
    expect(ids).toContain('readWardleExampleComV1alpha1Fischer');
    expect(ids).toContain('patchWardleExampleComV1alpha1NamespacedFlunderStatus');
    expect(d.components.schemas['com.example.wardle.v1alpha1.Flunder']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' },
    ]);
    expect(d.components.schemas['com.example.wardle.v1alpha1.FlunderSpec'].properties.referenceType.enum).toEqual(['Flunder', 'Fischer']);
    expect(d.paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders'].get.tags).toEqual(['wardleExampleCom_v1alpha1']);
  });

  it('describes the discovery documents', () => {
    expect(doc('api').paths['/api/'].get.operationId).toBe('getCoreAPIVersions');
    expect(doc('apis').paths['/apis/'].get.responses['200'].content['application/json'].schema.$ref)
      .toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList');
    expect(doc('apis/apps').paths['/apis/apps/'].get.operationId).toBe('getAppsAPIGroup');
    expect(doc('apis/rbac.authorization.k8s.io').paths['/apis/rbac.authorization.k8s.io/'].get.operationId).toBe('getRbacAuthorizationAPIGroup');
    expect(doc('version').paths['/version/'].get.responses['200'].content['application/json'].schema.$ref)
      .toBe('#/components/schemas/io.k8s.apimachinery.pkg.version.Info');
  });
});

/**
 * kubectl 1.33's own lookups, replayed on the documents: `kubectl explain` (k8s.io/kubectl/pkg/explain/v2) takes
 * the GVK from the resource's paths and then the schema carrying it; field validation (cli-runtime's
 * queryParamVerifierV3) looks for `fieldValidation` on the kind's PATCH operation; client-side apply
 * (gvkSupportsPatchOpenAPIV3) looks for strategic-merge-patch in that operation's request body.
 */
describe('what kubectl reads from OpenAPI v3', () => {
  const explainGVK = (d: Json, group: string, version: string, resource: string) => {
    const prefix = group ? `/apis/${group}` : '/api';
    for (const path of [
      `${prefix}/${version}/${resource}`, `${prefix}/${version}/${resource}/{name}`,
      `${prefix}/${version}/namespaces/{namespace}/${resource}`, `${prefix}/${version}/namespaces/{namespace}/${resource}/{name}`,
    ]) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const gvk = d.paths[path]?.[method]?.['x-kubernetes-group-version-kind'];
        if (gvk) return gvk;
      }
    }
    return undefined;
  };
  const schemaFor = (d: Json, gvk: Json) =>
    Object.values<Json>(d.components.schemas).find((s) =>
      (s['x-kubernetes-group-version-kind'] ?? []).some((g: Json) => JSON.stringify(g) === JSON.stringify(gvk)));
  const patchOp = (d: Json, gvk: Json) =>
    Object.values<Json>(d.paths).map((item) => item.patch).find((op) => op && JSON.stringify(op['x-kubernetes-group-version-kind']) === JSON.stringify(gvk));

  const cases: [string, string, string, string][] = [
    ['api/v1', '', 'v1', 'pods'], ['api/v1', '', 'v1', 'namespaces'], ['apis/apps/v1', 'apps', 'v1', 'deployments'],
    ['apis/rbac.authorization.k8s.io/v1', 'rbac.authorization.k8s.io', 'v1', 'clusterroles'],
    ['apis/wardle.example.com/v1alpha1', 'wardle.example.com', 'v1alpha1', 'flunders'],
    ['apis/coordination.k8s.io/v1', 'coordination.k8s.io', 'v1', 'leases'],
  ];

  it.each(cases)('explain finds %s %s', (key, group, version, resource) => {
    const d = doc(key);
    const gvk = explainGVK(d, group, version, resource);
    expect(gvk).toBeDefined();
    expect(Object.keys(gvk)).toEqual(['group', 'kind', 'version']);
    const schema = schemaFor(d, gvk);
    expect(schema?.properties?.metadata).toBeDefined();
  });

  it.each(cases)('field validation, and strategic merge patch where the group takes it, are advertised for %s %s', (key, group, version, resource) => {
    const d = doc(key);
    const op = patchOp(d, explainGVK(d, group, version, resource));
    expect(paramNames(op.parameters)).toContain('fieldValidation');
    // wardle, like custom resources, has no strategic merge patch: kubectl then uses a JSON merge patch.
    expect(Object.keys(op.requestBody.content).includes('application/strategic-merge-patch+json')).toBe(group !== 'wardle.example.com');
  });

  it('finds the explain schema of a create-only kind through its POST', () => {
    const d = doc('apis/authorization.k8s.io/v1');
    const gvk = explainGVK(d, 'authorization.k8s.io', 'v1', 'subjectaccessreviews');
    expect(gvk).toEqual({ group: 'authorization.k8s.io', kind: 'SubjectAccessReview', version: 'v1' });
    expect(schemaFor(d, gvk)?.properties?.spec).toBeDefined();
  });
});

describe('OpenAPI v2', () => {
  const swagger = buildSwaggerDocument(docs.values()) as unknown as Json;

  it('is a valid Swagger 2.0 document whose $refs resolve', () => {
    expect(swagger.swagger).toBe('2.0');
    expect(swagger2Problems(swagger)).toEqual([]);
    expect(danglingRefs(swagger)).toEqual([]);
    expect(swagger.security).toEqual([{ BearerToken: [] }]);
  });

  it('holds every group\'s paths and definitions in kube\'s v2 form', () => {
    expect(swagger.paths['/api/v1/namespaces/{namespace}/pods']).toBeDefined();
    expect(swagger.paths['/apis/wardle.example.com/v1alpha1/fischers']).toBeDefined();
    const patch = swagger.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch.consumes).toEqual([
      'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
    ]);
    expect(patch.produces).toEqual(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    // A group without strategic merge patch (wardle, groups from schemas/) does not advertise it: kubectl would
    // choose it for client-side apply and diff and get 415.
    for (const path of ['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}', '/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}/status']) {
      expect(swagger.paths[path].patch.consumes).toEqual(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
    }
    expect(patch.parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(patch.parameters.map((p: Json) => p.name)).toContain('fieldValidation');
    expect(patch.parameters.find((p: Json) => p.name === 'force')).toMatchObject({ in: 'query', type: 'boolean', uniqueItems: true });
    expect(patch.responses['200'].schema).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' });
    expect(swagger.definitions['io.k8s.api.apps.v1.Deployment'].properties.spec).toEqual({
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec', description: 'Specification of the desired behavior of the Deployment.',
    });
    expect(swagger.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string', format: 'int-or-string' });
    expect(swagger.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'].type).toBe('string');
  });

  it('turns inline int-or-string unions into strings', () => {
    expect(toSwaggerSchema({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }))
      .toEqual({ format: 'int-or-string', type: 'string', 'x-kubernetes-int-or-string': true });
  });
});

describe('the OpenAPI service', () => {
  it('encodes each document once and hashes it with upper-case SHA-512', () => {
    let calls = 0;
    const service = createOpenAPIService(() => (calls++, GROUPS));
    const first = service.v3('apis/apps/v1')!;
    expect(service.v3('apis/apps/v1')).toBe(first);
    expect(first.etag).toMatch(/^[0-9A-F]{128}$/);
    const index = JSON.parse(new TextDecoder().decode(service.v3Index().body));
    expect(index.paths['apis/apps/v1']).toEqual({ serverRelativeURL: `/openapi/v3/apis/apps/v1?hash=${first.etag}` });
    expect(index.paths['api/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    expect(Object.keys(index.paths)).toEqual(expect.arrayContaining(['api', 'apis', 'apis/apps', 'version', 'apis/wardle.example.com/v1alpha1']));
    expect(service.v2Json()).toBe(service.v2Json());
    expect(calls).toBeGreaterThan(1);
  });

  it('rebuilds when the groups change', () => {
    let groups: GroupDefinition[] = [core];
    const service = createOpenAPIService(() => groups);
    expect(service.v3('apis/apps/v1')).toBeUndefined();
    groups = [core, apps];
    expect(service.v3('apis/apps/v1')).toBeDefined();
  });

  it('still serves valid documents for a group generated without OpenAPI schemas', () => {
    const { openapi: _, ...bare } = coordination;
    const d = buildOpenAPIV3Documents([bare]).get('apis/coordination.k8s.io/v1')! as unknown as OpenAPIV3Document & Json;
    expect(openAPI3Problems(d)).toEqual([]);
    expect(danglingRefs(d)).toEqual([]);
    expect(d.components.schemas['io.k8s.api.coordination.v1.Lease']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
    ]);
  });
});
