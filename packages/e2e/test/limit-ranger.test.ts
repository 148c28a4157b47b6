// kube 1.33's LimitRange (defaulting and validation) and LimitRanger admission plugin, as clients see them: a
// namespace's LimitRanges default its new pods' container resources and refuse pods and claims outside their bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@kapi/apiserver';
import { startCoreServer, type JsonResponse } from '../src/core-server.js';
import { kubectlBinaries, kubectlOf } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlBin = kubectlBinaries()[0];

describe('LimitRange and the LimitRanger admission plugin (kube 1.33)', { timeout: 30_000 }, () => {
  let server: ApiServer;
  let req: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  beforeAll(async () => {
    ({ server, req } = await startCoreServer());
  });
  afterAll(() => server?.stop());
  const namespace = async (name: string, limits: unknown[]) => {
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    const created = await req('POST', `/api/v1/namespaces/${name}/limitranges`, { metadata: { name: 'limits' }, spec: { limits } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const pod = (name: string, containers: unknown[], extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers, ...extra } });

  it('defaults a Container item from its max, default and min, as kube does', async () => {
    const range = await namespace('defaults', [{ type: 'Container', max: { cpu: '2' }, default: { memory: '256Mi' }, min: { 'ephemeral-storage': '1Gi' } }]);
    expect(range.spec.limits[0]).toEqual({
      type: 'Container',
      max: { cpu: '2' },
      min: { 'ephemeral-storage': '1Gi' },
      default: { cpu: '2', memory: '256Mi' },
      defaultRequest: { cpu: '2', memory: '256Mi', 'ephemeral-storage': '1Gi' },
    });
  });

  it("gives a new pod's containers the defaults they lack, and says so in kube's annotation", async () => {
    await namespace('team', [
      { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, max: { cpu: '1' }, min: { cpu: '50m' } },
      { type: 'Pod', max: { memory: '1Gi' } },
    ]);
    const created = await req('POST', '/api/v1/namespaces/team/pods', pod('web', [{ name: 'app', image: 'nginx' }, { name: 'side', image: 'nginx', resources: { requests: { cpu: '200m' } } }], { initContainers: [{ name: 'init', image: 'busybox' }] }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [app, side] = created.body.spec.containers;
    expect(app.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(side.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '128Mi' } });
    expect(created.body.spec.initContainers[0].resources.limits).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(created.body.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for container side; ' +
        'cpu, memory limit for container side; cpu, memory request for init container init; cpu, memory limit for init container init',
    );
    // The defaults make it Burstable, as kube's QoS sees the defaulted pod.
    expect(created.body.status.qosClass).toBe('Burstable');
  });

  it("refuses pods outside the items' min, max and ratio with kube's 403 messages", async () => {
    await namespace('strict', [
      { type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '512Mi' }, maxLimitRequestRatio: { cpu: '4' } },
      { type: 'Pod', max: { cpu: '1500m' } },
    ]);
    const refused = async (name: string, containers: unknown[]) => {
      const res = await req('POST', '/api/v1/namespaces/strict/pods', pod(name, containers));
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', details: { name, kind: 'pods' } });
      return res.body.message;
    };
    // Defaults from the max: limits cpu 1, memory 512Mi; requests the same.
    expect((await req('POST', '/api/v1/namespaces/strict/pods', pod('fits', [{ name: 'app', image: 'nginx' }]))).status).toBe(201);
    expect(await refused('tiny', [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '50m' } } }])).toBe(
      'pods "tiny" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, cpu max limit to request ratio per Container is 4, but provided ratio is 20.000000]',
    );
    expect(await refused('huge', [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '2', memory: '1Gi' } } }])).toBe(
      'pods "huge" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 512Mi, but limit is 1Gi, maximum cpu usage per Pod is 1500m, but limit is 2]',
    );
    expect(await refused('pair', [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx' }])).toBe('pods "pair" is forbidden: maximum cpu usage per Pod is 1500m, but limit is 2');
  });

  it("bounds a claim's storage request, on create and update", async () => {
    await namespace('storage', [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
    const claim = (name: string, storage: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
    const big = await req('POST', '/api/v1/namespaces/storage/persistentvolumeclaims', claim('big', '20Gi'));
    expect(big.status).toBe(403);
    expect(big.body.message).toBe('persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
    const small = await req('POST', '/api/v1/namespaces/storage/persistentvolumeclaims', claim('small', '500Mi'));
    expect(small.body.message).toBe('persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    expect((await req('POST', '/api/v1/namespaces/storage/persistentvolumeclaims', claim('ok', '5Gi'))).status).toBe(201);
  });

  it('validates a LimitRange as kube does', async () => {
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'bad' } })).status).toBe(201);
    const create = (limits: unknown[]) => req('POST', '/api/v1/namespaces/bad/limitranges', { metadata: { name: `r${Math.random().toString(36).slice(2, 7)}` }, spec: { limits } });
    const causes = (res: { body: any }) => (res.body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
    const cases: [unknown[], string[]][] = [
      [[{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }], [
        'spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than max value 1',
        'spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1", Format:"DecimalSI"}: min value 2 is greater than default request value 1',
        'spec.limits[0].default[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than default value 1',
      ]],
      [[{ type: 'Pod', default: { cpu: '1' } }], ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]],
      [[{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }], ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided']],
      [[{ type: 'Gizmo' }], ['spec.limits[0].type: Invalid value: "Gizmo": must be a standard limit type or fully qualified']],
      [[{ type: 'Container' }, { type: 'Container' }], ['spec.limits[1].type: Duplicate value: "Container"']],
      [[{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }], ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: ratio 500m is less than 1']],
      // A Container item's max would also be defaulted into its default and default request, each reported.
      [[{ type: 'Pod', max: { pods: '1' } }], ['spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers']],
    ];
    for (const [limits, expected] of cases) {
      const res = await create(limits);
      expect(res.status, JSON.stringify(limits)).toBe(422);
      expect(causes(res), JSON.stringify(limits)).toEqual(expected);
    }
  });
});

describe.skipIf(!kubectlBin)('LimitRanger through kubectl, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-limits-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl describe shows the defaulted LimitRange; kubectl run gets its defaults and its refusals', async () => {
    await ok(kubectlBin!.path, 'apply', '-f', write('apiVersion: v1\nkind: LimitRange\nmetadata: {name: limits}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: "1"}\n    defaultRequest: {cpu: 200m}\n'));
    const described = await ok(kubectlBin!.path, 'describe', 'limitrange', 'limits');
    expect(described).toMatch(/Container\s+cpu\s+-\s+1\s+200m\s+1\s+-/);
    await ok(kubectlBin!.path, 'run', 'web', '--image=nginx');
    expect(await ok(kubectlBin!.path, 'get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].resources}')).toBe('{"limits":{"cpu":"1"},"requests":{"cpu":"200m"}}');
    const refused = await kubectl(kubectlBin!.path, 'run', 'big', '--image=nginx', '--overrides={"spec":{"containers":[{"name":"big","image":"nginx","resources":{"limits":{"cpu":"2"}}}]}}');
    expect(refused.stderr).toContain('Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  });
});
