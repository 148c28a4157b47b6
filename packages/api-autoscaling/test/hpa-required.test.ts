import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { plugin } from '../src/index.js';

// What kube 1.33 answers for HorizontalPodAutoscalers missing the fields their OpenAPI schema calls required: kube
// never enforces those lists for built-in kinds, decoding leaves the field at its zero value and
// ValidateHorizontalPodAutoscaler judges it (pkg/apis/autoscaling/validation).

const V1 = '/apis/autoscaling/v1/namespaces/ns/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/ns/horizontalpodautoscalers';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const MAX_REPLICAS = [
  'spec.maxReplicas: Invalid value: 0: must be greater than 0',
  'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
];
const SCALE_TARGET = ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value'];
const TARGET_TYPE = (path: string) => [
  `${path}.target.type: Required value: must specify a metric target type`,
  `${path}.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue`,
];

describe('HorizontalPodAutoscalers missing required fields (kube 1.33: the zero value, judged by its validation)', () => {
  let server: ApiServer;
  let n = 0;
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await server.fetch(
      new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** The `field: message` causes of the 422 for an HPA of this version with this spec (none: no spec at all). */
  const refused = async (version: 'v1' | 'v2', spec?: unknown, annotations?: Record<string, string>) => {
    const res = await req('POST', version === 'v1' ? V1 : V2, {
      apiVersion: `autoscaling/${version}`,
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: `refused-${n++}`, ...(annotations ? { annotations } : {}) },
      ...(spec === undefined ? {} : { spec }),
    });
    expect(res.status).toBe(422);
    return res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };
  const v2 = (spec: object) => refused('v2', { scaleTargetRef: ref, maxReplicas: 3, ...spec });
  const metric = (m: object) => v2({ metrics: [m] });

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(), plugin] });
    await server.start();
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } })).status).toBe(201);
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('spec.maxReplicas: 0, below the defaulted minReplicas of 1 (v1 and v2)', async () => {
    expect(await refused('v2', { scaleTargetRef: ref })).toEqual(MAX_REPLICAS);
    expect(await refused('v1', { scaleTargetRef: ref })).toEqual(MAX_REPLICAS);
    const res = await req('POST', V2, { metadata: { name: 'no-max' }, spec: { scaleTargetRef: ref } });
    expect(res.body.message).toBe(`HorizontalPodAutoscaler.autoscaling "no-max" is invalid: [${MAX_REPLICAS.join(', ')}]`);
  });

  it('spec.scaleTargetRef, or its kind and name (v1 and v2)', async () => {
    expect(await refused('v2', { maxReplicas: 3 })).toEqual(SCALE_TARGET);
    expect(await refused('v2', { maxReplicas: 3, scaleTargetRef: {} })).toEqual(SCALE_TARGET);
    expect(await refused('v2', { maxReplicas: 3, scaleTargetRef: { name: 'web' } })).toEqual([SCALE_TARGET[0]]);
    expect(await refused('v1', { maxReplicas: 3 })).toEqual(SCALE_TARGET);
    expect(await refused('v1', { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment' } })).toEqual([SCALE_TARGET[1]]);
  });

  it('no spec at all: the zero spec, defaulted (v1 and v2)', async () => {
    expect(await refused('v2')).toEqual([...MAX_REPLICAS, ...SCALE_TARGET]);
    expect(await refused('v1')).toEqual([...MAX_REPLICAS, ...SCALE_TARGET]);
  });

  it('a metric without a type', async () => {
    const unsupported = 'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"';
    expect(await metric({})).toEqual(['spec.metrics[0].type: Required value: must specify a metric source type', unsupported, unsupported]);
  });

  it('each metric source without its required fields (describedObject, metric, target, name, container)', async () => {
    expect(await metric({ type: 'Object', object: {} })).toEqual([
      'spec.metrics[0].object.describedObject.kind: Required value',
      'spec.metrics[0].object.describedObject.name: Required value',
      'spec.metrics[0].object.metric.name: Required value: must specify a metric name',
      ...TARGET_TYPE('spec.metrics[0].object'),
      'spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue',
    ]);
    expect(await metric({ type: 'Pods', pods: {} })).toEqual([
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      ...TARGET_TYPE('spec.metrics[0].pods'),
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ]);
    expect(await metric({ type: 'Resource', resource: {} })).toEqual([
      'spec.metrics[0].resource.name: Required value: must specify a resource name',
      ...TARGET_TYPE('spec.metrics[0].resource'),
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
    expect(await metric({ type: 'ContainerResource', containerResource: {} })).toEqual([
      'spec.metrics[0].containerResource.name: Required value: must specify a resource name',
      'spec.metrics[0].containerResource.container: Required value: must specify a container',
      ...TARGET_TYPE('spec.metrics[0].containerResource'),
      'spec.metrics[0].containerResource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
    expect(await metric({ type: 'External', external: {} })).toEqual([
      'spec.metrics[0].external.metric.name: Required value: must specify a metric name',
      ...TARGET_TYPE('spec.metrics[0].external'),
      'spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target',
    ]);
  });

  it('a metric target without a type, a metric identifier without a name', async () => {
    expect(await metric({ type: 'External', external: { metric: { selector: { matchLabels: { a: 'b' } } }, target: { value: '1' } } })).toEqual([
      'spec.metrics[0].external.metric.name: Required value: must specify a metric name',
      ...TARGET_TYPE('spec.metrics[0].external'),
    ]);
  });

  it("a scaling policy without type, value or periodSeconds", async () => {
    expect(await v2({ behavior: { scaleUp: { policies: [{}] }, scaleDown: { policies: [{ type: 'Pods' }] } } })).toEqual([
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
    ]);
  });

  it('v1: metrics carried in the annotation are decoded as Go does (zero values) and judged the same way', async () => {
    expect(await refused('v1', { scaleTargetRef: ref, maxReplicas: 3 }, { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"External","external":{}}]' })).toEqual([
      'spec.metrics[0].external.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target',
    ]);
  });

  it('a label selector requirement without key or operator is not validated by kube: stored with empty strings', async () => {
    const selector = { matchExpressions: [{}, { key: 'tier', operator: 'In', values: ['web'] }] };
    const res = await req('POST', V2, {
      metadata: { name: 'selector' },
      spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [{ type: 'External', external: { metric: { name: 'queue', selector }, target: { type: 'Value', value: '1' } } }] },
    });
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(201);
    expect(res.body.spec.metrics[0].external.metric.selector).toEqual({ matchExpressions: [{ key: '', operator: '' }, { key: 'tier', operator: 'In', values: ['web'] }] });
    const asV1 = await req('GET', `${V1}/selector`);
    expect(JSON.parse(asV1.body.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])[0].external.metricSelector).toEqual({
      matchExpressions: [{ key: '', operator: '' }, { key: 'tier', operator: 'In', values: ['web'] }],
    });
  });

  it('a container resource name that is not a standard one is printed as kube prints a ResourceName (unquoted)', async () => {
    expect(await metric({ type: 'ContainerResource', containerResource: { name: 'InvalidResource', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } } })).toEqual([
      'spec.metrics[0].containerResource.name: Invalid value: InvalidResource: must be a standard resource type or fully qualified',
      'spec.metrics[0].containerResource.name: Invalid value: InvalidResource: must be a standard resource for containers',
    ]);
  });
});
