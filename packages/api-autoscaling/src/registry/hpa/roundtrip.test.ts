import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '@kapi/apimachinery';
import { hpaConversion } from '../hpa-conversion.js';
import { ROUND_TRIP_ANNOTATIONS } from './annotations.js';

// Valid v2 HorizontalPodAutoscalers as the server stores them (defaulted, canonical quantities and times), in the
// shapes kube's conversion keeps: at most one cpu Utilization metric, last (v1 puts it after the others); an Object
// target always has a value and statuses their values, as kube's v1 alpha types hold them as non-pointers.

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const quantity = fc.constantFrom('0', '1', '100m', '1500m', '2k', '5Mi', '1Gi', '250m', '10');
const percent = fc.integer({ min: 1, max: 500 });
const time = fc.integer({ min: 0, max: 2_000_000_000 }).map((s) => new Date(s * 1000).toISOString().replace(/\.000Z$/, 'Z'));
const text = fc.string({ minLength: 1, maxLength: 12 });
const selector = fc.option(
  fc.record(
    {
      matchLabels: fc.dictionary(name, fc.oneof(text, fc.constantFrom('<a&b>', '\u2028')), { minKeys: 1, maxKeys: 3 }),
      matchExpressions: fc.array(fc.record({ key: name, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(name, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
const identifier = fc.record({ name, selector }).map(({ name, selector }) => (selector ? { name, selector } : { name }));
const ref = fc.record({ kind: fc.constantFrom('Deployment', 'Ingress'), name, apiVersion: fc.option(fc.constantFrom('apps/v1', 'networking.k8s.io/v1'), { nil: undefined }) }).map((r) =>
  r.apiVersion ? r : { kind: r.kind, name: r.name },
);
const valueOrAverage = (allowBoth: boolean) =>
  fc.oneof(
    quantity.map((value) => ({ type: 'Value', value })),
    allowBoth ? fc.tuple(quantity, quantity).map(([value, averageValue]) => ({ type: 'AverageValue', value, averageValue })) : quantity.map((averageValue) => ({ type: 'AverageValue', averageValue })),
  );
const resourceTarget = (allowUtilization: boolean) =>
  allowUtilization ? fc.oneof(percent.map((averageUtilization) => ({ type: 'Utilization', averageUtilization })), quantity.map((averageValue) => ({ type: 'AverageValue', averageValue }))) : quantity.map((averageValue) => ({ type: 'AverageValue', averageValue }));

const otherMetric = fc.oneof(
  fc.record({ describedObject: ref, target: valueOrAverage(true), metric: identifier }).map((object) => ({ type: 'Object', object })),
  fc.record({ metric: identifier, target: quantity.map((averageValue) => ({ type: 'AverageValue', averageValue })) }).map((pods) => ({ type: 'Pods', pods })),
  fc.oneof(
    fc.record({ name: fc.constantFrom('memory', 'ephemeral-storage'), target: resourceTarget(true) }),
    fc.record({ name: fc.constant('cpu'), target: resourceTarget(false) }),
  ).map((resource) => ({ type: 'Resource', resource })),
  fc.record({ name: fc.constantFrom('cpu', 'memory'), container: name, target: resourceTarget(true) }).map((containerResource) => ({ type: 'ContainerResource', containerResource })),
  fc.record({ metric: identifier, target: valueOrAverage(false) }).map((external) => ({ type: 'External', external })),
);
const cpuMetric = percent.map((averageUtilization) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } }));
const metrics = fc
  .tuple(fc.array(otherMetric, { maxLength: 4 }), fc.option(cpuMetric, { nil: undefined }))
  .filter(([others, cpu]) => others.length > 0 || cpu !== undefined)
  .map(([others, cpu]) => (cpu ? [...others, cpu] : others));

const rules = fc.record(
  {
    stabilizationWindowSeconds: fc.integer({ min: 0, max: 3600 }),
    selectPolicy: fc.constantFrom('Max', 'Min', 'Disabled'),
    policies: fc.array(fc.record({ type: fc.constantFrom('Pods', 'Percent'), value: fc.integer({ min: 1, max: 100 }), periodSeconds: fc.integer({ min: 1, max: 1800 }) }), { minLength: 1, maxLength: 3 }),
    tolerance: fc.constantFrom('50m', '0', '1'),
  },
  { requiredKeys: [] },
);
const behavior = fc.record({ scaleUp: rules, scaleDown: rules }, { requiredKeys: [] }).filter((b) => Object.keys(b).length > 0);

const metricStatus = fc.oneof(
  fc.record({ metric: identifier, current: fc.record({ value: quantity, averageValue: quantity }, { requiredKeys: ['value'] }), describedObject: ref }).map((object) => ({ type: 'Object', object })),
  fc.record({ metric: identifier, current: quantity.map((averageValue) => ({ averageValue })) }).map((pods) => ({ type: 'Pods', pods })),
  fc.record({ name: fc.constantFrom('cpu', 'memory'), current: fc.record({ averageValue: quantity, averageUtilization: percent }, { requiredKeys: ['averageValue'] }) }).map((resource) => ({ type: 'Resource', resource })),
  fc.record({ name: fc.constantFrom('cpu', 'memory'), container: name, current: fc.record({ averageValue: quantity, averageUtilization: percent }, { requiredKeys: ['averageValue'] }) }).map((containerResource) => ({
    type: 'ContainerResource',
    containerResource,
  })),
  fc.record({ metric: identifier, current: fc.record({ value: quantity, averageValue: quantity }, { requiredKeys: ['value'] }) }).map((external) => ({ type: 'External', external })),
);
const condition = fc.record(
  { type: fc.constantFrom('AbleToScale', 'ScalingActive', 'ScalingLimited'), status: fc.constantFrom('True', 'False', 'Unknown'), lastTransitionTime: time, reason: text, message: text },
  { requiredKeys: ['type', 'status'] },
);
const userAnnotations = fc.option(fc.dictionary(fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6})?$/), fc.string({ maxLength: 10 }), { minKeys: 1, maxKeys: 3 }), { nil: undefined });

const v2Hpa = fc
  .record({
    annotations: userAnnotations,
    scaleTargetRef: ref,
    minReplicas: fc.integer({ min: 1, max: 10 }),
    maxReplicas: fc.integer({ min: 10, max: 100 }),
    metrics,
    behavior: fc.option(behavior, { nil: undefined }),
    status: fc.record(
      {
        observedGeneration: fc.integer({ min: 1, max: 100 }),
        lastScaleTime: time,
        currentReplicas: fc.integer({ min: 1, max: 100 }),
        desiredReplicas: fc.integer({ min: 0, max: 100 }),
        currentMetrics: fc.array(metricStatus, { minLength: 1, maxLength: 3 }),
        conditions: fc.array(condition, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['desiredReplicas'] },
    ),
  })
  .map(({ annotations, status, behavior, ...spec }): KubeObject => ({
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata: { name: 'h', namespace: 'ns', uid: 'u', resourceVersion: '7', ...(annotations ? { annotations } : {}) },
    spec: behavior ? { ...spec, behavior } : spec,
    status,
  }));

const deepFreeze = <T>(v: T): T => {
  if (v && typeof v === 'object') {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
};
const convert = (o: KubeObject, to: string): KubeObject => (hpaConversion.convert([deepFreeze(o)], to) as KubeObject[])[0]!;

describe('HorizontalPodAutoscaler conversion round trips (fast-check)', () => {
  it('v2 → v1 → v2 is lossless, and never touches its frozen input', () => {
    fc.assert(
      fc.property(v2Hpa, (hpa) => {
        const copy = structuredClone(hpa);
        const v1 = convert(hpa, 'autoscaling/v1');
        expect(v1.apiVersion).toBe('autoscaling/v1');
        const back = convert(v1, 'autoscaling/v2');
        expect(back).toEqual(copy);
        expect(hpa).toEqual(copy);
      }),
      { numRuns: 300 },
    );
  });

  it('v1 → v2 → v1 is lossless for v1 objects as a server writes them (round-trip annotations included)', () => {
    fc.assert(
      fc.property(v2Hpa, (hpa) => {
        const v1 = convert(hpa, 'autoscaling/v1');
        const copy = structuredClone(v1);
        expect(convert(convert(v1, 'autoscaling/v2'), 'autoscaling/v1')).toEqual(copy);
        expect(v1).toEqual(copy);
      }),
      { numRuns: 300 },
    );
  });

  const v1Hpa = fc
    .record({
      annotations: userAnnotations,
      scaleTargetRef: ref,
      minReplicas: fc.integer({ min: 1, max: 10 }),
      maxReplicas: fc.integer({ min: 10, max: 100 }),
      targetCPUUtilizationPercentage: percent,
      status: fc.record(
        {
          observedGeneration: fc.integer({ min: 1, max: 100 }),
          lastScaleTime: time,
          currentReplicas: fc.integer({ min: 0, max: 100 }),
          desiredReplicas: fc.integer({ min: 0, max: 100 }),
          currentCPUUtilizationPercentage: percent,
        },
        { requiredKeys: ['currentReplicas', 'desiredReplicas'] },
      ),
    })
    .map(({ annotations, status, ...spec }): KubeObject => ({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'h', namespace: 'ns', ...(annotations ? { annotations } : {}) },
      spec,
      status,
    }));

  it('v1 → v2 → v1 keeps a plain v1 object\'s fields; only the current-metrics annotation kube adds appears, then it is a fixpoint', () => {
    fc.assert(
      fc.property(v1Hpa, (hpa) => {
        const copy = structuredClone(hpa);
        const once = convert(convert(hpa, 'autoscaling/v2'), 'autoscaling/v1');
        expect(hpa).toEqual(copy);
        expect(once.spec).toEqual(copy.spec);
        expect(once.status).toEqual(copy.status);
        const annotations = { ...((once.metadata as any).annotations ?? {}) };
        const added = Object.keys(annotations).filter((k) => (ROUND_TRIP_ANNOTATIONS as readonly string[]).includes(k));
        expect(added).toEqual('currentCPUUtilizationPercentage' in (copy.status as object) ? ['autoscaling.alpha.kubernetes.io/current-metrics'] : []);
        for (const k of added) delete annotations[k];
        expect(Object.keys(annotations).length ? annotations : undefined).toEqual((copy.metadata as any).annotations);
        expect(convert(convert(once, 'autoscaling/v2'), 'autoscaling/v1')).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });
});
