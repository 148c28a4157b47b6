import { describe, expect, it } from 'vitest';
import { formatFieldError, type KubeObject } from '@kapi/apimachinery';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate } from './validation.js';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const hpa = (spec: object): KubeObject => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu], ...spec } });
const msgs = (spec: object) => validateHorizontalPodAutoscaler(hpa(spec)).map(formatFieldError);
const policy = { type: 'Pods', value: 1, periodSeconds: 60 };

describe('validateHorizontalPodAutoscaler (kube 1.33 messages)', () => {
  it('accepts a valid spec with every metric kind and a behavior', () => {
    expect(
      msgs({
        metrics: [
          cpu,
          { type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'AverageValue', averageValue: '1500m' } } },
          { type: 'Object', object: { describedObject: ref, metric: { name: 'rps' }, target: { type: 'Value', value: '10' } } },
          { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
          { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '1Gi' } } },
        ],
        behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [policy] }, scaleDown: { policies: [{ type: 'Percent', value: 10, periodSeconds: 1800 }] } },
      }),
    ).toEqual([]);
  });

  it('replicas', () => {
    expect(msgs({ minReplicas: -3, maxReplicas: 0 })).toEqual([
      'spec.minReplicas: Invalid value: -3: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    ]);
    expect(msgs({ minReplicas: 4, maxReplicas: 3 })).toEqual(['spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`']);
    expect(msgs({ minReplicas: 0 })).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });

  it('minReplicas 0 stays allowed on update where it was already (HPAScaleToZero off)', () => {
    const external = { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } };
    expect(validateHorizontalPodAutoscalerUpdate(hpa({ minReplicas: 0, metrics: [external] }), hpa({ minReplicas: 0 }))).toEqual([]);
    expect(validateHorizontalPodAutoscalerUpdate(hpa({ minReplicas: 0, metrics: [cpu] }), hpa({ minReplicas: 0 })).map(formatFieldError)).toEqual([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    expect(validateHorizontalPodAutoscalerUpdate(hpa({ minReplicas: 0 }), hpa({ minReplicas: 1 })).map(formatFieldError)[0]).toBe(
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    );
  });

  it('scaleTargetRef', () => {
    expect(msgs({ scaleTargetRef: { kind: '', name: '' } })).toEqual(['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']);
    expect(msgs({ scaleTargetRef: { kind: '..', name: 'a/b%c' } })).toEqual([
      `spec.scaleTargetRef.kind: Invalid value: "..": may not be '..'`,
      `spec.scaleTargetRef.name: Invalid value: "a/b%c": may not contain '/'`,
      `spec.scaleTargetRef.name: Invalid value: "a/b%c": may not contain '%'`,
    ]);
  });

  it('metric type and source', () => {
    expect(msgs({ metrics: [{ type: 'Bogus' }] })).toEqual([
      'spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ]);
    expect(msgs({ metrics: [{ type: '' }] })[0]).toBe('spec.metrics[0].type: Required value: must specify a metric source type');
    expect(msgs({ metrics: [{ type: 'Pods' }] })).toEqual(['spec.metrics[0].pods: Required value: must populate information for the given metric source']);
    expect(msgs({ metrics: [{ ...cpu, pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } }] })).toEqual([
      'spec.metrics[0].pods: Forbidden: must populate the given metric source only',
    ]);
  });

  it('metric identifier and target', () => {
    expect(msgs({ metrics: [{ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'AverageValue', averageValue: '-1' } } }] })).toEqual([
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
    ]);
    expect(msgs({ metrics: [{ type: 'Pods', pods: { metric: { name: 'tps' }, target: { type: 'Value', value: '1' } } }] })).toEqual([
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ]);
    expect(msgs({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Bogus', averageUtilization: -4 } } }] })).toEqual([
      'spec.metrics[0].resource.target.type: Invalid value: "Bogus": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: -4: must be greater than 0',
    ]);
    expect(msgs({ metrics: [{ type: 'Resource', resource: { name: '', target: {} } }] })).toEqual([
      'spec.metrics[0].resource.name: Required value: must specify a resource name',
      'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
      'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
    expect(msgs({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' } } }] })).toEqual([
      'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
    ]);
    expect(msgs({ metrics: [{ type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'm' }, target: { type: 'Value' } } }] })).toEqual([
      'spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue',
    ]);
    expect(msgs({ metrics: [{ type: 'External', external: { metric: { name: 'm' }, target: { type: 'Value', value: '0', averageValue: '1' } } }] })).toEqual([
      'spec.metrics[0].external.target.value: Invalid value: resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}: must be positive',
      'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
    ]);
    expect(msgs({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'pods', container: 'App', target: { type: 'Utilization', averageUtilization: 5 } } }] })).toEqual([
      'spec.metrics[0].containerResource.name: Invalid value: pods: must be a standard resource for containers',
      `spec.metrics[0].containerResource.container: Invalid value: "App": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  it('behavior', () => {
    expect(msgs({ behavior: { scaleDown: { stabilizationWindowSeconds: -999999, selectPolicy: 'Bogus', policies: [] }, scaleUp: { stabilizationWindowSeconds: 3601, policies: [{ type: 'X', value: 0, periodSeconds: 1801 }] } } })).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "X": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -999999: must be greater than or equal to zero',
      'spec.behavior.scaleDown.selectPolicy: Unsupported value: "Bogus": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ]);
    expect(msgs({ behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 0 }] } } })).toEqual([
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
    ]);
  });

  it('status update', () => {
    const h = { ...hpa({}), status: { currentReplicas: -1, desiredReplicas: -2 } } as KubeObject;
    expect(validateHorizontalPodAutoscalerStatusUpdate(h).map(formatFieldError)).toEqual([
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });
});
