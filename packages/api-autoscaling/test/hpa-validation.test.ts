import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { plugin } from '../src/index.js';

const V1 = '/apis/autoscaling/v1/namespaces/ns/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/ns/horizontalpodautoscalers';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('HorizontalPodAutoscaler validation through the server (kube 1.33)', () => {
  let server: ApiServer;
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await server.fetch(
      new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
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

  it('v1: 422 with the internal (v2) field paths', async () => {
    const res = await req('POST', V1, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: ref, minReplicas: -3, maxReplicas: 0, targetCPUUtilizationPercentage: -4 },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { name: 'bad', group: 'autoscaling', kind: 'HorizontalPodAutoscaler' } });
    expect(res.body.message).toBe(
      'HorizontalPodAutoscaler.autoscaling "bad" is invalid: [spec.minReplicas: Invalid value: -3: must be greater than or equal to 1, spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.metrics[0].resource.target.averageUtilization: Invalid value: -4: must be greater than 0]',
    );
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: -3: must be greater than or equal to 1', field: 'spec.minReplicas' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.maxReplicas' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: -4: must be greater than 0', field: 'spec.metrics[0].resource.target.averageUtilization' },
    ]);
  });

  it('v2: 422 for a bad Pods metric and behavior', async () => {
    const res = await req('POST', V2, {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad' },
      spec: {
        scaleTargetRef: ref,
        maxReplicas: 3,
        metrics: [{ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'AverageValue', averageValue: '-1' } } }],
        behavior: { scaleDown: { stabilizationWindowSeconds: -999999, selectPolicy: 'Bogus', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: must specify a metric name', field: 'spec.metrics[0].pods.metric.name' },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
        field: 'spec.metrics[0].pods.target.averageValue',
      },
      { reason: 'FieldValueInvalid', message: 'Invalid value: -999999: must be greater than or equal to zero', field: 'spec.behavior.scaleDown.stabilizationWindowSeconds' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Bogus": supported values: "Disabled", "Max", "Min"', field: 'spec.behavior.scaleDown.selectPolicy' },
    ]);
  });

  it('a valid HPA with a behavior is still created, and an invalid update of it is 422', async () => {
    const created = await req('POST', V2, {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'good' },
      spec: {
        scaleTargetRef: ref,
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
        behavior: { scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } },
      },
    });
    expect(created.status).toBe(201);
    const asV1 = await req('GET', `${V1}/good`);
    const put = await req('PUT', `${V1}/good`, { ...asV1.body, spec: { ...asV1.body.spec, maxReplicas: 1 } });
    expect(put.status).toBe(422);
    expect(put.body.message).toBe('HorizontalPodAutoscaler.autoscaling "good" is invalid: spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`');
    const status = await req('PUT', `${V2}/good/status`, { ...created.body, status: { currentReplicas: -1, desiredReplicas: 0 } });
    expect(status.status).toBe(422);
    expect(status.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'status.currentReplicas' }]);
  });

  it('v2 defaults a behavior before validating it (as kube): left-out policies are filled, an empty list is 422', async () => {
    const spec = { scaleTargetRef: ref, maxReplicas: 3 };
    const filled = await req('POST', V2, { metadata: { name: 'defaulted' }, spec: { ...spec, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    expect(filled.status).toBe(201);
    expect(filled.body.spec.behavior).toEqual({
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
    const empty = await req('POST', V2, { metadata: { name: 'empty' }, spec: { ...spec, behavior: { scaleUp: { policies: [] } } } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('HorizontalPodAutoscaler.autoscaling "empty" is invalid: spec.behavior.scaleUp.policies: Required value: must specify at least one Policy');
  });

  it('v2 without metrics gets kube\'s CPU utilization target of 80%, where Go writes it; tolerance is dropped (HPAConfigurableTolerance off)', async () => {
    const res = await req('POST', V2, {
      metadata: { name: 'nometrics' },
      spec: { scaleTargetRef: ref, maxReplicas: 3, behavior: { scaleUp: { tolerance: '0.05' } } },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.spec)).toEqual(['scaleTargetRef', 'minReplicas', 'maxReplicas', 'metrics', 'behavior']);
    expect(res.body.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(res.body.spec.behavior.scaleUp.tolerance).toBeUndefined();
    expect(res.body.spec.behavior.scaleDown.tolerance).toBeUndefined();
    // Given metrics are kept as they are.
    const given = await req('POST', V2, { metadata: { name: 'given' }, spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] } });
    expect(given.body.spec.metrics).toEqual([{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }]);
  });
});
