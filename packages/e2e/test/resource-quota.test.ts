// kube 1.33's ResourceQuota, as clients see it: the quota controller counts a quota's usage into its status, and the
// ResourceQuota admission plugin refuses (403) what a quota has no room for and charges the rest at once.
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@kapi/apiserver';
import { startCoreServer, type JsonResponse } from '../src/core-server.js';
import { kubectlBinaries, kubectlOf } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlBin = kubectlBinaries()[0];

describe('ResourceQuota: the quota controller and the ResourceQuota admission plugin (kube 1.33)', { timeout: 30_000 }, () => {
  let server: ApiServer;
  let req: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  beforeAll(async () => {
    ({ server, req } = await startCoreServer());
  });
  afterAll(() => server?.stop());
  const ns = (name: string) => `/api/v1/namespaces/${name}`;
  /** The quota once the controller has counted it as `ok` expects. */
  const counted = async (namespace: string, name: string, ok: (status: any) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const res = await req('GET', `${ns(namespace)}/resourcequotas/${name}`);
      if (res.body.status?.used && ok(res.body.status)) return res.body.status;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`quota ${namespace}/${name} never counted as expected: ${JSON.stringify((await req('GET', `${ns(namespace)}/resourcequotas/${name}`)).body.status)}`);
  };
  const setup = async (namespace: string, quota: Record<string, unknown>) => {
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status).toBe(201);
    const created = await req('POST', `${ns(namespace)}/resourcequotas`, { metadata: { name: 'q' }, spec: quota });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return counted(namespace, 'q', () => true);
  };
  const pod = (name: string, resources?: unknown, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', resources }], ...extra } });

  it('counts usage into the status, charges each create, and refuses the one over the limit', async () => {
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'shop' } })).status).toBe(201);
    for (const name of ['a', 'b']) expect((await req('POST', `${ns('shop')}/configmaps`, { metadata: { name }, data: { k: 'v' } })).status).toBe(201);
    // Existing objects are counted when the quota arrives.
    const created = await req('POST', `${ns('shop')}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { configmaps: '3', pods: '2', 'requests.cpu': '1', 'count/deployments.apps': '1' } } });
    expect(created.status).toBe(201);
    const status = await counted('shop', 'q', () => true);
    expect(status).toEqual({
      hard: { configmaps: '3', pods: '2', 'requests.cpu': '1', 'count/deployments.apps': '1' },
      used: { configmaps: '2', pods: '0', 'requests.cpu': '0', 'count/deployments.apps': '0' },
    });
    expect((await req('POST', `${ns('shop')}/configmaps`, { metadata: { name: 'c' } })).status).toBe(201);
    // Charged at admission: visible at once.
    expect((await req('GET', `${ns('shop')}/resourcequotas/q`)).body.status.used.configmaps).toBe('3');
    const fourth = await req('POST', `${ns('shop')}/configmaps`, { metadata: { name: 'd' } });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ reason: 'Forbidden', details: { name: 'd', kind: 'configmaps' } });
    expect(fourth.body.message).toBe('configmaps "d" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=3, limited: configmaps=3');
    // A dry run is judged but not charged.
    const dry = await req('POST', `${ns('shop')}/pods?dryRun=All`, pod('dry', { requests: { cpu: '500m' } }));
    expect(dry.status, JSON.stringify(dry.body)).toBe(201);
    expect((await req('GET', `${ns('shop')}/resourcequotas/q`)).body.status.used.pods).toBe('0');
    // Compute resources: each container must ask for what the quota tracks.
    const bare = await req('POST', `${ns('shop')}/pods`, pod('bare'));
    expect(bare.body.message).toBe('pods "bare" is forbidden: failed quota: q: must specify requests.cpu for: app');
    expect((await req('POST', `${ns('shop')}/pods`, pod('p1', { requests: { cpu: '600m' } }))).status).toBe(201);
    const over = await req('POST', `${ns('shop')}/pods`, pod('p2', { requests: { cpu: '500m' } }));
    expect(over.body.message).toBe('pods "p2" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    // Any resource by its count name.
    const deployment = (name: string) => ({ metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } } });
    expect((await req('POST', '/apis/apps/v1/namespaces/shop/deployments', deployment('web'))).status).toBe(201);
    const second = await req('POST', '/apis/apps/v1/namespaces/shop/deployments', deployment('api'));
    expect(second.body.message).toBe('deployments.apps "api" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
    // Deleting releases usage (the controller counts again).
    expect((await req('DELETE', `${ns('shop')}/configmaps/a`)).status).toBe(200);
    expect((await counted('shop', 'q', (s) => s.used.configmaps === '2')).used).toMatchObject({ configmaps: '2', pods: '1', 'requests.cpu': '600m', 'count/deployments.apps': '1' });
    expect((await req('POST', `${ns('shop')}/configmaps`, { metadata: { name: 'd' } })).status).toBe(201);
  });

  it('counts concurrent creates once each: no more than the limit get in', async () => {
    await setup('race', { hard: { secrets: '5' } });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => req('POST', `${ns('race')}/secrets`, { metadata: { name: `s${i}` } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 403)).toHaveLength(15);
    expect((await req('GET', `${ns('race')}/secrets`)).body.items).toHaveLength(5);
  });

  it('applies scopes: BestEffort pods and Terminating pods are counted only by quotas of their scope', async () => {
    await setup('scoped', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    expect((await req('POST', `${ns('scoped')}/pods`, pod('best'))).status).toBe(201);
    expect((await req('POST', `${ns('scoped')}/pods`, pod('best2'))).body.message).toBe('pods "best2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
    // A Burstable pod is out of the quota's scope.
    expect((await req('POST', `${ns('scoped')}/pods`, pod('burstable', { requests: { cpu: '100m' } }))).status).toBe(201);
    expect((await req('GET', `${ns('scoped')}/resourcequotas/q`)).body.status.used).toEqual({ pods: '1' });
  });

  it('validates a ResourceQuota as kube does, and keeps its scopes', async () => {
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'checks' } })).status).toBe(201);
    const causes = (res: { body: any }) => (res.body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ hard: { pods: '-1' } }, ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0']],
      [{ hard: { pods: '1500m' } }, ['spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}: must be an integer']],
      [{ hard: { gizmos: '1' } }, ['spec.hard[gizmos]: Invalid value: "gizmos": must be a standard resource type or fully qualified']],
      [{ hard: { storage: '1' } }, ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
      [{ hard: { services: '1' }, scopes: ['BestEffort'] }, ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource']],
      [{ hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }, ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes']],
      [{ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } }, ["spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"]],
      // The schema marks scopeName and operator required; kube decodes them as "" and its validation says why.
      [{ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{}] } }, ['spec.scopeSelector.matchExpressions.scopeName: Invalid value: "": unsupported scope', 'spec.scopeSelector.matchExpressions.operator: Invalid value: "": not a valid selector operator']],
    ];
    for (const [spec, expected] of cases) {
      const res = await req('POST', `${ns('checks')}/resourcequotas`, { metadata: { name: 'bad' }, spec });
      expect(res.status, JSON.stringify(spec)).toBe(422);
      expect(causes(res), JSON.stringify(spec)).toEqual(expected);
    }
    expect((await req('POST', `${ns('checks')}/resourcequotas`, { metadata: { name: 'good' }, spec: { hard: { pods: '2' }, scopes: ['NotTerminating'] } })).status).toBe(201);
    const current = (await req('GET', `${ns('checks')}/resourcequotas/good`)).body;
    const changed = await req('PUT', `${ns('checks')}/resourcequotas/good`, { ...current, spec: { ...current.spec, scopes: ['Terminating'] } });
    expect(causes(changed)).toEqual(['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable']);
  });

  it('counts services, node ports and load balancers, and claims with their storage', async () => {
    await setup('net', { hard: { services: '5', 'services.nodeports': '2', 'services.loadbalancers': '0', 'requests.storage': '5Gi' } });
    const service = (name: string, type: string, ports = 1) => ({ metadata: { name }, spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ name: `p${i}`, port: 80 + i })) } });
    expect((await req('POST', `${ns('net')}/services`, service('plain', 'ClusterIP'))).status).toBe(201);
    expect((await req('POST', `${ns('net')}/services`, service('np', 'NodePort', 2))).status).toBe(201);
    expect((await req('POST', `${ns('net')}/services`, service('np2', 'NodePort'))).body.message).toBe(
      'services "np2" is forbidden: exceeded quota: q, requested: services.nodeports=1, used: services.nodeports=2, limited: services.nodeports=2',
    );
    expect((await req('POST', `${ns('net')}/services`, service('lb', 'LoadBalancer'))).body.message).toMatch(/^services "lb" is forbidden: exceeded quota: q, requested: services.loadbalancers=1,services.nodeports=1, used: services.loadbalancers=0,services.nodeports=2, limited: services.loadbalancers=0,services.nodeports=2$/);
    const claim = (name: string, storage: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
    expect((await req('POST', `${ns('net')}/persistentvolumeclaims`, claim('data', '4Gi'))).status).toBe(201);
    expect((await req('POST', `${ns('net')}/persistentvolumeclaims`, claim('more', '2Gi'))).body.message).toBe(
      'persistentvolumeclaims "more" is forbidden: exceeded quota: q, requested: requests.storage=2Gi, used: requests.storage=4Gi, limited: requests.storage=5Gi',
    );
  });
  it("counts what a resizing pod's containers run with, and a claim's allocated storage (kube 1.33 reads both from status)", async () => {
    await setup('resize', { hard: { 'requests.cpu': '4', 'limits.cpu': '8', 'requests.storage': '10Gi' } });
    const created = await req('POST', `${ns('resize')}/pods`, pod('app', { requests: { cpu: '1' }, limits: { cpu: '2' } }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await counted('resize', 'q', (s) => s.used['requests.cpu'] === '1' && s.used['limits.cpu'] === '2');
    // The kubelet reports the container running with 3 CPUs (a resize under way): the larger counts.
    const running = (requests: string, limits: string, conditions: unknown[] = []) => ({
      ...created.body,
      status: {
        phase: 'Running',
        conditions,
        containerStatuses: [
          { name: 'app', image: 'nginx', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: requests }, limits: { cpu: limits } }, allocatedResources: { cpu: requests } },
        ],
      },
    });
    let current = await req('GET', `${ns('resize')}/pods/app`);
    const grown = await req('PUT', `${ns('resize')}/pods/app/status`, { ...running('3', '3'), metadata: current.body.metadata });
    expect(grown.status, JSON.stringify(grown.body)).toBe(200);
    await counted('resize', 'q', (s) => s.used['requests.cpu'] === '3' && s.used['limits.cpu'] === '3');
    // An infeasible resize counts only what the container runs with.
    current = await req('GET', `${ns('resize')}/pods/app`);
    const infeasible = [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible', lastProbeTime: null, lastTransitionTime: '2026-11-29T00:00:00Z' }];
    const shrunk = await req('PUT', `${ns('resize')}/pods/app/status`, { ...running('500m', '1', infeasible), metadata: current.body.metadata });
    expect(shrunk.status, JSON.stringify(shrunk.body)).toBe(200);
    await counted('resize', 'q', (s) => s.used['requests.cpu'] === '500m' && s.used['limits.cpu'] === '1');

    // A claim whose volume was given more than it asks for (an expansion asked back down) counts what it got.
    const claim = await req('POST', `${ns('resize')}/persistentvolumeclaims`, { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } });
    expect(claim.status).toBe(201);
    const allocated = await req('PUT', `${ns('resize')}/persistentvolumeclaims/data/status`, { ...claim.body, status: { phase: 'Bound', allocatedResources: { storage: '6Gi' }, capacity: { storage: '6Gi' } } });
    expect(allocated.status, JSON.stringify(allocated.body)).toBe(200);
    await counted('resize', 'q', (s) => s.used['requests.storage'] === '6Gi');
    const more = await req('POST', `${ns('resize')}/persistentvolumeclaims`, { metadata: { name: 'more' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } });
    expect(more.body.message).toBe('persistentvolumeclaims "more" is forbidden: exceeded quota: q, requested: requests.storage=5Gi, used: requests.storage=6Gi, limited: requests.storage=10Gi');
  });
});

describe("ResourceQuota's limitedResources (the admission configuration): what needs a covering quota", { timeout: 30_000 }, () => {
  let server: ApiServer;
  let req: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  beforeAll(async () => {
    ({ server, req } = await startCoreServer({
      resourceQuota: {
        limitedResources: [
          { apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [] },
          { apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] },
        ],
      },
    }));
    for (const name of ['limited', 'covered']) expect((await req('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
  });
  afterAll(() => server?.stop());
  const pod = (name: string, resources: unknown, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', resources }], ...extra } });

  it('refuses cpu in a namespace without a quota on it (403), lets in what uses none, and cpu once a quota covers it', async () => {
    const refused = await req('POST', '/api/v1/namespaces/limited/pods', pod('cpu', { requests: { cpu: '100m' }, limits: { cpu: '200m' } }));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "cpu" is forbidden: insufficient quota to consume: cpu,limits.cpu,requests.cpu');
    // Memory only: nothing limited is used.
    expect((await req('POST', '/api/v1/namespaces/limited/pods', pod('memory', { requests: { memory: '64Mi' } }))).status).toBe(201);
    // A quota on memory does not cover cpu.
    expect((await req('POST', '/api/v1/namespaces/limited/resourcequotas', { metadata: { name: 'mem' }, spec: { hard: { memory: '1Gi' } } })).status).toBe(201);
    const still = await req('POST', '/api/v1/namespaces/limited/pods', pod('cpu', { requests: { cpu: '100m', memory: '64Mi' } }));
    expect(still.body.message).toBe('pods "cpu" is forbidden: insufficient quota to consume: cpu,requests.cpu');

    // A quota must cover every limited name the pod uses: cpu and limits.cpu leave requests.cpu uncovered.
    expect((await req('POST', '/api/v1/namespaces/covered/resourcequotas', { metadata: { name: 'cpu' }, spec: { hard: { cpu: '2', 'limits.cpu': '4' } } })).status).toBe(201);
    expect((await req('POST', '/api/v1/namespaces/covered/pods', pod('cpu', { requests: { cpu: '100m' }, limits: { cpu: '200m' } }))).body.message).toBe(
      'pods "cpu" is forbidden: insufficient quota to consume: requests.cpu',
    );
    expect((await req('POST', '/api/v1/namespaces/covered/resourcequotas', { metadata: { name: 'requests' }, spec: { hard: { 'requests.cpu': '2' } } })).status).toBe(201);
    let admitted = 0;
    for (let i = 0; i < 100 && admitted !== 201; i++) {
      // The quota must be counted first (kube: "status unknown" until the controller has).
      admitted = (await req('POST', '/api/v1/namespaces/covered/pods', pod('cpu', { requests: { cpu: '100m' }, limits: { cpu: '200m' } }))).status;
      if (admitted !== 201) await new Promise((r) => setTimeout(r, 25));
    }
    expect(admitted).toBe(201);
  });

  it("refuses a pod in a limited scope that no quota's scope covers with kube's 500, and admits it once one does", async () => {
    // A claim falls in no pod scope: it needs no covering quota.
    const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await req('POST', '/api/v1/namespaces/limited/persistentvolumeclaims', claim)).status).toBe(201);
    // A pod of priority class gold does (kube's doc example: limit a priority class's consumption by default).
    const gold = await req('POST', '/api/v1/namespaces/limited/pods', pod('gold', { requests: { memory: '64Mi' } }, { priorityClassName: 'gold' }));
    expect([gold.status, gold.body.reason, gold.body.message]).toEqual([500, undefined, 'insufficient quota to match these scopes: [{PriorityClass In [gold]}]']);
    expect((await req('POST', '/api/v1/namespaces/limited/resourcequotas', {
      metadata: { name: 'gold' },
      spec: { hard: { pods: '10' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] } },
    })).status).toBe(201);
    let admitted = 0;
    for (let i = 0; i < 100 && admitted !== 201; i++) {
      admitted = (await req('POST', '/api/v1/namespaces/limited/pods', pod('gold', { requests: { memory: '64Mi' } }, { priorityClassName: 'gold' }))).status;
      if (admitted !== 201) await new Promise((r) => setTimeout(r, 25));
    }
    expect(admitted).toBe(201);
  });
});

describe.skipIf(!kubectlBin)('ResourceQuota through kubectl, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-quota-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl create quota, describe shows used and hard, and a create over it is refused', async () => {
    await ok(kubectlBin!.path, 'create', 'quota', 'small', '--hard=configmaps=2,pods=1');
    let described = '';
    for (let i = 0; i < 100 && !/configmaps\s+\d+\s+2/.test(described); i++) {
      described = await ok(kubectlBin!.path, 'describe', 'quota', 'small');
      await new Promise((r) => setTimeout(r, 50));
    }
    // kube-root-ca.crt is one of the namespace's ConfigMaps, as on kube.
    expect(described).toMatch(/configmaps\s+1\s+2/);
    expect(described).toMatch(/pods\s+0\s+1/);
    await ok(kubectlBin!.path, 'apply', '-f', write('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n'));
    const refused = await kubectl(kubectlBin!.path, 'create', 'configmap', 'two');
    expect(refused.stderr).toContain('error: failed to create configmap: configmaps "two" is forbidden: exceeded quota: small, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
  });
});

describe.skipIf(!kubectlBin)('--admission-control-config-file: limiting a priority class by default (kube\'s documented example)', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-quota-limited-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    // The AdmissionConfiguration names the ResourceQuota plugin's configuration by a path relative to itself.
    const quotaConfig = write(
      'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchScopes:\n  - scopeName: PriorityClass\n    operator: In\n    values: ["cluster-services"]\n',
    );
    const admission = write(`apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: ${basename(quotaConfig)}\n`);
    server = await startServerProcess(['--storage-backend=memory', `--admission-control-config-file=${admission}`]);
  }, 60_000);
  afterAll(() => server?.stop());

  it('refuses a pod of that class until a quota scoped to it exists, then admits it', async () => {
    await ok(kubectlBin!.path, 'create', 'priorityclass', 'cluster-services', '--value=1000');
    const podManifest = write('apiVersion: v1\nkind: Pod\nmetadata: {name: critical}\nspec:\n  priorityClassName: cluster-services\n  containers: [{name: app, image: nginx}]\n');
    const refused = await kubectl(kubectlBin!.path, 'apply', '-f', podManifest);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]');
    // Pods of other classes are not limited.
    await ok(kubectlBin!.path, 'run', 'ordinary', '--image=nginx');
    await ok(kubectlBin!.path, 'apply', '-f', write(
      'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods-cluster-services}\nspec:\n  scopeSelector:\n    matchExpressions:\n    - {operator: In, scopeName: PriorityClass, values: ["cluster-services"]}\n',
    ));
    let created = await kubectl(kubectlBin!.path, 'apply', '-f', podManifest);
    for (let i = 0; i < 100 && created.status !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      created = await kubectl(kubectlBin!.path, 'apply', '-f', podManifest);
    }
    expect(created.stdout).toContain('pod/critical created');
  });
});
