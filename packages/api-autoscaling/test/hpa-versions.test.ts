import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { plugin } from '../src/index.js';

const V1 = '/apis/autoscaling/v1/namespaces/ns/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/ns/horizontalpodautoscalers';
const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';

describe('HorizontalPodAutoscaler served as autoscaling/v1 and v2 through one server', () => {
  let server: ApiServer;
  const req = async (method: string, path: string, body?: unknown, accept = 'application/json') => {
    const res = await server.fetch(
      new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json', accept }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(), plugin] });
    await server.start();
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } })).status).toBe(201);
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('creates in v1, reads and updates in v2, reads and PUTs back in v1 without losing what only v2 can say', async () => {
    const created = await req('POST', V1, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('autoscaling/v1');
    expect(created.body.spec).toEqual({ scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    expect(created.body.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });

    const asV2 = await req('GET', `${V2}/web`);
    expect(asV2.body.apiVersion).toBe('autoscaling/v2');
    expect(asV2.body.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    expect(asV2.body.metadata.annotations).toBeUndefined();

    const pods = { type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'AverageValue', averageValue: '1500m' } } };
    const behavior = { scaleDown: { stabilizationWindowSeconds: 120, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } };
    const updated = await req('PUT', `${V2}/web`, { ...asV2.body, spec: { ...asV2.body.spec, metrics: [...asV2.body.spec.metrics, pods], behavior } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
    // v2 defaulting (SetDefaults_HorizontalPodAutoscalerBehavior) fills the scale-up rules left out
    const defaultedBehavior = {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      ...behavior,
    };
    expect(updated.body.spec.behavior).toEqual(defaultedBehavior);

    const asV1 = await req('GET', `${V1}/web`);
    expect(asV1.body.spec.targetCPUUtilizationPercentage).toBe(60);
    expect(asV1.body.metadata.annotations[METRICS]).toBe('[{"type":"Pods","pods":{"metricName":"tps","targetAverageValue":"1500m"}}]');
    expect(asV1.body.metadata.annotations[BEHAVIOR]).toBe(
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},' +
        '"ScaleDown":{"StabilizationWindowSeconds":120,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":null}}',
    );

    const put = await req('PUT', `${V1}/web`, asV1.body);
    expect(put.status).toBe(200);
    expect(put.body.metadata.resourceVersion).toBe(asV1.body.metadata.resourceVersion);
    const again = await req('GET', `${V2}/web`);
    // unchanged in v1: nothing is written (kapi compares in the request's version), so the order stays
    expect(again.body.spec.metrics).toEqual([asV2.body.spec.metrics[0], pods]);
    expect(again.body.spec.behavior).toEqual(defaultedBehavior);
    expect(again.body.metadata.annotations).toBeUndefined();

    // a v1 change of what only the annotations carry is a spec change
    const annotations = { ...asV1.body.metadata.annotations, [METRICS]: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"2"}}]' };
    const changed = await req('PUT', `${V1}/web`, { ...asV1.body, metadata: { ...asV1.body.metadata, annotations } });
    expect(changed.status).toBe(200);
    expect(changed.body.metadata.generation).toBe(3);
    const rewritten = await req('GET', `${V2}/web`);
    // written from v1: the other metrics first, the CPU target last, as kube orders them
    expect(rewritten.body.spec.metrics).toEqual([{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '2' } } }, asV2.body.spec.metrics[0]]);
    expect(rewritten.body.spec.behavior).toEqual(defaultedBehavior);
  });

  it('keeps status out of a v1 create and a v1 update, annotations included, and v2 objects free of round-trip annotations', async () => {
    const status = '[{"type":"AbleToScale","status":"True","lastTransitionTime":null}]';
    const created = await req('POST', V1, {
      metadata: { name: 'st', annotations: { 'autoscaling.alpha.kubernetes.io/conditions': status, keep: 'yes' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.annotations).toEqual({ keep: 'yes' });
    // no CPU target: kube's conversion default of 80%
    expect(created.body.spec.targetCPUUtilizationPercentage).toBe(80);
    const v2 = await req('POST', V2, {
      metadata: { name: 'v2', annotations: { [METRICS]: '[{"type":"Pods"}]' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
    });
    expect(v2.status).toBe(201);
    expect(v2.body.metadata.annotations).toBeUndefined();
  });

  it('lists, watches and prints in v1', async () => {
    const list = await req('GET', V1);
    expect(list.body.kind).toBe('HorizontalPodAutoscalerList');
    expect(list.body.apiVersion).toBe('autoscaling/v1');
    // v1 objects: a CPU target, no metrics
    expect(list.body.items.map((i: any) => [i.metadata.name, i.spec.targetCPUUtilizationPercentage, i.spec.metrics])).toEqual([
      ['st', 80, undefined],
      ['v2', 50, undefined],
      ['web', 60, undefined],
    ]);

    const watch = await server.fetch(new Request(`http://kapi.test${V1}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`));
    const reader = watch.body!.getReader();
    const v2 = await req('GET', `${V2}/web`);
    await req('PUT', `${V2}/web`, { ...v2.body, spec: { ...v2.body.spec, maxReplicas: 9 } });
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const event = JSON.parse(text.split('\n')[0]!);
    expect(event.type).toBe('MODIFIED');
    expect(event.object.apiVersion).toBe('autoscaling/v1');
    expect(event.object.spec.maxReplicas).toBe(9);
    expect(event.object.metadata.annotations[METRICS]).toContain('"metricName":"rps"');

    const table = await req('GET', `${V1}/web`, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(table.body.rows[0].cells.slice(0, 5)).toEqual(['web', 'Deployment/web', '<unknown>/2, cpu: <unknown>/60%', '1', 9]);
  });
});
