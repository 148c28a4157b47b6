import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { hpaConversion, v1ToV2, v2ToV1 } from '../hpa-conversion.js';
import { BEHAVIOR, CONDITIONS, METRIC_SPECS, METRIC_STATUSES } from './annotations.js';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const v2 = (spec: object, status: object = { desiredReplicas: 0 }, annotations?: Record<string, string>): KubeObject => ({
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v2',
  metadata: { name: 'h', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, ...spec },
  status,
});
const v1 = (spec: object, status: object = {}, annotations?: Record<string, string>): KubeObject => ({
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v1',
  metadata: { name: 'h', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, ...spec },
  status: { currentReplicas: 0, desiredReplicas: 0, ...status },
});
const cpu = (averageUtilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } });
const cpuValue = { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '300m' } } };
const annotationsOf = (o: KubeObject) => (o.metadata as { annotations?: Record<string, string> }).annotations;

describe('v2 → v1: spec (kube TestConvert_autoscaling_HorizontalPodAutoscalerSpec_To_v1, #101370)', () => {
  it('takes the first cpu metric with a utilization target, even after a cpu AverageValue metric', () => {
    const out = v2ToV1(v2({ metrics: [cpuValue, cpu(70)] }));
    expect(out.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 70 });
    // the AverageValue cpu metric is another metric: kept in the annotation, as Go writes the v1 alpha MetricSpec
    expect(annotationsOf(out)).toEqual({ [METRIC_SPECS]: '[{"type":"Resource","resource":{"name":"cpu","targetAverageValue":"300m"}}]' });
  });

  it('has no CPU target and no annotation without metrics', () => {
    const out = v2ToV1(v2({ metrics: [] }));
    expect(out.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3 });
    expect(annotationsOf(out)).toBeUndefined();
  });

  it('with the cpu utilization metric alone, writes only the CPU target', () => {
    const out = v2ToV1(v2({ metrics: [cpu(60)] }));
    expect((out.spec as any).targetCPUUtilizationPercentage).toBe(60);
    expect(annotationsOf(out)).toBeUndefined();
  });

  it('writes every other metric source as the v1 alpha types, in Go field order, with Go escapes and sorted map keys', () => {
    const metrics = [
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, target: { type: 'Value', value: '10k' }, metric: { name: 'rps', selector: { matchLabels: { z: '1', a: '<&>' } } } } },
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, target: { type: 'AverageValue', averageValue: '5' }, metric: { name: 'q' } } },
      { type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'AverageValue', averageValue: '1500m' } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 75 } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'AverageValue', averageValue: '1' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }, { key: 'e', operator: 'Exists' }] } }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'External', external: { metric: { name: 'lag' }, target: { type: 'Value', value: '2' } } },
      cpu(50),
    ];
    const out = v2ToV1(v2({ metrics }));
    expect((out.spec as any).targetCPUUtilizationPercentage).toBe(50);
    expect(annotationsOf(out)![METRIC_SPECS]).toBe(
      '[' +
        [
          '{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"metricName":"rps","targetValue":"10k","selector":{"matchLabels":{"a":"\\u003c\\u0026\\u003e","z":"1"}}}}',
          '{"type":"Object","object":{"target":{"kind":"Service","name":"s"},"metricName":"q","targetValue":"0","averageValue":"5"}}',
          '{"type":"Pods","pods":{"metricName":"tps","targetAverageValue":"1500m"}}',
          '{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":75}}',
          '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageValue":"1","container":"app"}}',
          '{"type":"External","external":{"metricName":"queue","metricSelector":{"matchExpressions":[{"key":"k","operator":"In","values":["a"]},{"key":"e","operator":"Exists"}]},"targetAverageValue":"30"}}',
          '{"type":"External","external":{"metricName":"lag","targetValue":"2"}}',
        ].join(',') +
        ']',
    );
  });

  it('writes behavior as kube marshals its internal type: Go field names, nil as null', () => {
    const behavior = {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }], tolerance: '0.05' },
    };
    const out = v2ToV1(v2({ metrics: [cpu(80)], behavior }));
    expect(annotationsOf(out)).toEqual({
      [BEHAVIOR]:
        '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},' +
        '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":null,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":"50m"}}',
    });
    expect(JSON.parse(annotationsOf(v2ToV1(v2({ metrics: [cpu(80)], behavior: { scaleUp: { selectPolicy: 'Disabled' } } })))![BEHAVIOR]!)).toEqual({
      ScaleUp: { StabilizationWindowSeconds: null, SelectPolicy: 'Disabled', Policies: null, Tolerance: null },
      ScaleDown: null,
    });
  });
});

describe('v2 → v1: status', () => {
  const status = {
    observedGeneration: 4,
    lastScaleTime: '2024-05-01T10:00:00Z',
    currentReplicas: 2,
    desiredReplicas: 3,
    currentMetrics: [
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 40 } } },
      { type: 'Pods', pods: { metric: { name: 'tps' }, current: { averageValue: '3' } } },
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '130m', averageUtilization: 45 } } },
      { type: 'External', external: { metric: { name: 'queue' }, current: { value: '7', averageValue: '2' } } },
      { type: 'Object', object: { metric: { name: 'rps' }, describedObject: { kind: 'Ingress', name: 'main' }, current: { value: '9' } } },
      { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', current: { averageValue: '1Gi' } } },
    ],
    conditions: [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T09:00:00Z', reason: 'SucceededGetScale', message: 'the HPA controller was able to get the target\'s current scale' },
      { type: 'ScalingLimited', status: 'False' },
    ],
  };

  it('keeps the last cpu utilization reading, every metric status and the conditions in annotations', () => {
    const out = v2ToV1(v2({ metrics: [cpu(50)] }, status));
    expect(out.status).toEqual({ observedGeneration: 4, lastScaleTime: '2024-05-01T10:00:00Z', currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 45 });
    expect(annotationsOf(out)![METRIC_STATUSES]).toBe(
      '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"120m"}},' +
        '{"type":"Pods","pods":{"metricName":"tps","currentAverageValue":"3"}},' +
        '{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":45,"currentAverageValue":"130m"}},' +
        '{"type":"External","external":{"metricName":"queue","currentValue":"7","currentAverageValue":"2"}},' +
        '{"type":"Object","object":{"target":{"kind":"Ingress","name":"main"},"metricName":"rps","currentValue":"9"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"memory","currentAverageValue":"1Gi","container":"app"}}]',
    );
    expect(annotationsOf(out)![CONDITIONS]).toBe(
      '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T09:00:00Z","reason":"SucceededGetScale","message":"the HPA controller was able to get the target\'s current scale"},' +
        '{"type":"ScalingLimited","status":"False","lastTransitionTime":null}]',
    );
  });

  it('writes the status counts Go always writes, even without a status', () => {
    const { status: _s, ...bare } = v2({ metrics: [cpu(50)] });
    expect(v2ToV1(bare as KubeObject).status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
  });

  it('replaces round-trip annotations a v2 object carries with those it produces, keeps the others sorted', () => {
    const stale = { [METRIC_SPECS]: '[{"type":"Pods"}]', [CONDITIONS]: '[]', zeta: 'z', alpha: 'a' };
    const out = v2ToV1(v2({ metrics: [cpu(50)] }, { desiredReplicas: 0 }, stale));
    expect(Object.keys(annotationsOf(out)!)).toEqual(['alpha', 'zeta']);
  });
});

describe('v1 → v2', () => {
  it('makes the CPU target a cpu Utilization metric', () => {
    const out = v1ToV2(v1({ targetCPUUtilizationPercentage: 70 }, { currentReplicas: 1, desiredReplicas: 2, currentCPUUtilizationPercentage: 35 }));
    expect(out.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, metrics: [cpu(70)] });
    expect(out.status).toEqual({ currentReplicas: 1, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 35 } } }] });
  });

  it('defaults the CPU target to 80% without target and other metrics (kube applies it in conversion)', () => {
    expect((v1ToV2(v1({})).spec as any).metrics).toEqual([cpu(80)]);
  });

  it('puts the annotation metrics first and the CPU target last, and drops the round-trip annotations', () => {
    const annotations = { [METRIC_SPECS]: '[{"type":"Pods","pods":{"metricName":"tps","targetAverageValue":"1500m"}}]', keep: 'me' };
    const out = v1ToV2(v1({ targetCPUUtilizationPercentage: 60 }, {}, annotations));
    expect((out.spec as any).metrics).toEqual([{ type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'AverageValue', averageValue: '1500m' } } }, cpu(60)]);
    expect(annotationsOf(out)).toEqual({ keep: 'me' });
    // annotation metrics alone: no default
    expect((v1ToV2(v1({}, {}, annotations)).spec as any).metrics).toHaveLength(1);
  });

  it('reads every v1 alpha metric source back as kube converts it (Object always has a value, Pods an AverageValue target)', () => {
    const metrics = [
      { type: 'Object', object: { target: { kind: 'Service', name: 's' }, metricName: 'q', targetValue: '0', averageValue: '5' } },
      { type: 'Object', object: { target: { kind: 'Ingress', name: 'i', apiVersion: 'networking.k8s.io/v1' }, metricName: 'rps', targetValue: '10000', selector: { matchLabels: { a: '1' } } } },
      { type: 'Pods', pods: { metricName: 'tps' } },
      { type: 'Resource', resource: { name: 'memory', targetAverageUtilization: 75 } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', targetAverageValue: '1' } },
      { type: 'External', external: { metricName: 'lag', targetValue: 2 } },
    ];
    const out = v1ToV2(v1({}, {}, { [METRIC_SPECS]: JSON.stringify(metrics) }));
    expect((out.spec as any).metrics).toEqual([
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, target: { type: 'AverageValue', value: '0', averageValue: '5' }, metric: { name: 'q' } } },
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'i', apiVersion: 'networking.k8s.io/v1' }, target: { type: 'Value', value: '10k' }, metric: { name: 'rps', selector: { matchLabels: { a: '1' } } } } },
      { type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'AverageValue', averageValue: '0' } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 75 } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'AverageValue', averageValue: '1' } } },
      { type: 'External', external: { metric: { name: 'lag' }, target: { type: 'Value', value: '2' } } },
    ]);
  });

  it('reads status annotations: they replace the cpu reading, `null` included; conditions come back', () => {
    const annotations = {
      [METRIC_STATUSES]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"120m"}}]',
      [CONDITIONS]: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T11:00:00+02:00","reason":"R"},{"type":"ScalingActive","status":"False","lastTransitionTime":null}]',
    };
    const out = v1ToV2(v1({ targetCPUUtilizationPercentage: 50 }, { currentCPUUtilizationPercentage: 99 }, annotations));
    expect((out.status as any).currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 40 } } }]);
    expect((out.status as any).conditions).toEqual([
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T09:00:00Z', reason: 'R' },
      { type: 'ScalingActive', status: 'False' },
    ]);
    expect((v1ToV2(v1({}, { currentCPUUtilizationPercentage: 99 }, { [METRIC_STATUSES]: 'null' })).status as any).currentMetrics).toBeUndefined();
  });

  it('reads behavior as Go reads it: field names in any case, unknown keys ignored; the zero behavior is dropped', () => {
    const behavior = '{"scaleup":{"stabilizationWindowSeconds":30,"Policies":[{"type":"Pods","value":2,"periodseconds":60}],"extra":1},"ScaleDown":null}';
    expect((v1ToV2(v1({}, {}, { [BEHAVIOR]: behavior })).spec as any).behavior).toEqual({ scaleUp: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } });
    expect((v1ToV2(v1({}, {}, { [BEHAVIOR]: '{}' })).spec as any).behavior).toBeUndefined();
    expect((v1ToV2(v1({}, {}, { [BEHAVIOR]: '{"ScaleUp":null,"ScaleDown":null}' })).spec as any).behavior).toBeUndefined();
  });

  it('ignores annotations that are not well-formed for their Go type, and drops them all the same', () => {
    const bad = {
      [METRIC_SPECS]: '[{"type":"Pods","pods":{"metricName":5}}]',
      [METRIC_STATUSES]: '{not json',
      [BEHAVIOR]: '{"ScaleUp":{"Tolerance":"lots"}}',
      [CONDITIONS]: '[{"type":"A","status":"True","lastTransitionTime":"yesterday"}]',
    };
    const out = v1ToV2(v1({ targetCPUUtilizationPercentage: 40 }, { currentCPUUtilizationPercentage: 20 }, bad));
    expect((out.spec as any).metrics).toEqual([cpu(40)]);
    expect((out.spec as any).behavior).toBeUndefined();
    expect((out.status as any).currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 20 } } }]);
    expect((out.status as any).conditions).toBeUndefined();
    expect(annotationsOf(out)).toBeUndefined();
  });

  it('leaves out v2 currentReplicas when zero (omitempty) and keeps desiredReplicas', () => {
    expect(v1ToV2(v1({ targetCPUUtilizationPercentage: 1 })).status).toEqual({ desiredReplicas: 0 });
  });
});

describe('hpaConversion', () => {
  it('stores as v2, passes objects already in the asked version through, never mutates, refuses other versions', () => {
    expect(hpaConversion.storageVersion).toBe('v2');
    const a = Object.freeze(v2({ metrics: [cpu(50)] }));
    const b = v1({ targetCPUUtilizationPercentage: 50 });
    const before = structuredClone(b);
    const [same, converted] = hpaConversion.convert([a, Object.freeze(b)], 'autoscaling/v2') as KubeObject[];
    expect(same).toBe(a);
    expect(converted!.apiVersion).toBe('autoscaling/v2');
    expect(b).toEqual(before);
    let error: unknown;
    try {
      hpaConversion.convert([{ ...a, apiVersion: 'autoscaling/v2beta2' }], 'autoscaling/v1');
    } catch (err) {
      error = err;
    }
    expect(isStatusError(error)).toBe(true);
  });

  it('writes keys in the order kube writes them', () => {
    const [out] = hpaConversion.convert([v1({ targetCPUUtilizationPercentage: 50 }, { currentCPUUtilizationPercentage: 3 })], 'autoscaling/v2') as KubeObject[];
    expect(JSON.stringify(out!.spec)).toBe(
      '{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"minReplicas":1,"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}',
    );
  });
});
