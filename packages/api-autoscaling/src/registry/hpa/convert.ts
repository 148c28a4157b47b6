// autoscaling/v1 ⇄ autoscaling/v2 HorizontalPodAutoscaler, as kube converts through its internal (v2-shaped) type:
// pkg/apis/autoscaling/v1/conversion.go and v2/conversion.go. Pure: inputs are never mutated.
import { cloneJson, asObj, isObj, listAt, str, type KubeObject, type Obj } from '@kapi/apimachinery';
import { BEHAVIOR, CONDITIONS, METRIC_SPECS, METRIC_STATUSES, dropRoundTrip } from './annotations.js';
import { decodeMetricSpec, decodeMetricStatus, metricSpecFromGo, metricSpecToGo, metricStatusFromGo, metricStatusToGo } from './alpha-metrics.js';
import { behaviorFromGo, behaviorToGo, decodeBehavior } from './behavior.js';
import { conditionFromGo, conditionToGo, decodeCondition } from './conditions.js';
import { goMarshal, goSlice, goUnmarshal } from './go-json.js';

/** autoscaling/v1 formerly defaulted the CPU target in its controller; conversion applies it (DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80;

const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A v2 metric of type Resource for cpu: the one v1's CPU fields stand for. */
const isCpuResource = (m: unknown): boolean => str(asObj(m).type) === 'Resource' && isObj(asObj(m).resource) && str(asObj(asObj(m).resource).name) === 'cpu';
const cpuTarget = (m: unknown): number | undefined => (isCpuResource(m) ? int(asObj(asObj(asObj(m).resource).target).averageUtilization) : undefined);

/** Sets or removes a key, keeping `out`'s key order otherwise. */
const put = (out: Obj, key: string, value: unknown) => {
  if (value === undefined) delete out[key];
  else out[key] = value;
};

/** metadata with these annotations (none: the key left out, as Go's omitempty leaves an empty map out). */
function withAnnotations(metadata: unknown, annotations: Obj | undefined): Obj {
  const meta = { ...asObj(metadata) };
  put(meta, 'annotations', annotations && Object.keys(annotations).length ? annotations : undefined);
  return meta;
}

/** Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler, from a v2 object. */
export function v2ToV1(input: KubeObject): KubeObject {
  const hpa = cloneJson(input) as Obj;
  const spec = asObj(hpa.spec);
  const status = asObj(hpa.status);
  const metrics = listAt(spec, 'metrics');
  const currentMetrics = listAt(status, 'currentMetrics');
  const conditions = listAt(status, 'conditions');

  const v1Spec: Obj = { scaleTargetRef: spec.scaleTargetRef ?? { kind: '', name: '' } };
  put(v1Spec, 'minReplicas', spec.minReplicas);
  v1Spec.maxReplicas = spec.maxReplicas ?? 0;
  // the first cpu Resource metric with a utilization target (#101370: not merely the first cpu metric)
  put(v1Spec, 'targetCPUUtilizationPercentage', metrics.map(cpuTarget).find((t) => t !== undefined));

  const v1Status: Obj = {};
  put(v1Status, 'observedGeneration', status.observedGeneration);
  put(v1Status, 'lastScaleTime', status.lastScaleTime);
  v1Status.currentReplicas = status.currentReplicas ?? 0;
  v1Status.desiredReplicas = status.desiredReplicas ?? 0;
  // kube keeps the last cpu utilization reading
  let currentCpu: number | undefined;
  for (const m of currentMetrics) if (isCpuResource(m)) currentCpu = int(asObj(asObj(asObj(m).resource).current).averageUtilization) ?? currentCpu;
  put(v1Status, 'currentCPUUtilizationPercentage', currentCpu);

  const meta = asObj(hpa.metadata);
  const annotations = { ...dropRoundTrip(asObj(meta.annotations) as Obj) };
  const others = metrics.filter((m) => cpuTarget(m) === undefined);
  if (others.length) annotations[METRIC_SPECS] = goMarshal(others.map(metricSpecToGo));
  if (currentMetrics.length) annotations[METRIC_STATUSES] = goMarshal(currentMetrics.map(metricStatusToGo));
  if (isObj(spec.behavior)) annotations[BEHAVIOR] = goMarshal(behaviorToGo(spec.behavior));
  if (conditions.length) annotations[CONDITIONS] = goMarshal(conditions.map(conditionToGo));

  return {
    ...hpa,
    apiVersion: 'autoscaling/v1',
    metadata: withAnnotations(meta, Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
    spec: v1Spec,
    status: v1Status,
  } as KubeObject;
}

/** An annotation's JSON read as json.Unmarshal reads it; undefined when absent or not well-formed (kube then ignores it). */
function read<T>(annotations: Obj, key: string, decode: (v: unknown) => T): { value: T } | undefined {
  const text = annotations[key];
  return typeof text === 'string' ? goUnmarshal(text, decode) : undefined;
}

/** Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler, to a v2 object. */
export function v1ToV2(input: KubeObject): KubeObject {
  const hpa = cloneJson(input) as Obj;
  const spec = asObj(hpa.spec);
  const status = asObj(hpa.status);
  const meta = asObj(hpa.metadata);
  const annotations = asObj(meta.annotations);

  const cpu = int(spec.targetCPUUtilizationPercentage);
  const cpuMetric = (utilization: number): Obj => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
  let metrics: Obj[] = cpu === undefined ? [] : [cpuMetric(cpu)];
  const others = read(annotations, METRIC_SPECS, goSlice(decodeMetricSpec))?.value;
  // the other metrics first, the CPU target last
  if (others) metrics = [...others.map(metricSpecFromGo), ...metrics];
  if (!metrics.length) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const decodedBehavior = read(annotations, BEHAVIOR, decodeBehavior)?.value;
  const behavior = decodedBehavior && behaviorFromGo(decodedBehavior);

  const v2Spec: Obj = { scaleTargetRef: spec.scaleTargetRef ?? { kind: '', name: '' } };
  put(v2Spec, 'minReplicas', spec.minReplicas);
  v2Spec.maxReplicas = spec.maxReplicas ?? 0;
  v2Spec.metrics = metrics;
  put(v2Spec, 'behavior', behavior);

  const v2Status: Obj = {};
  put(v2Status, 'observedGeneration', status.observedGeneration);
  put(v2Status, 'lastScaleTime', status.lastScaleTime);
  // v2's currentReplicas is omitempty; desiredReplicas is always written
  put(v2Status, 'currentReplicas', int(status.currentReplicas) || undefined);
  v2Status.desiredReplicas = status.desiredReplicas ?? 0;
  const currentCpu = int(status.currentCPUUtilizationPercentage);
  let currentMetrics: Obj[] | undefined =
    currentCpu === undefined ? undefined : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCpu } } }];
  const statuses = read(annotations, METRIC_STATUSES, goSlice(decodeMetricStatus));
  // the annotation, when well-formed (even `null`), replaces the cpu reading: it has more information
  if (statuses) currentMetrics = (statuses.value ?? []).map(metricStatusFromGo);
  put(v2Status, 'currentMetrics', currentMetrics?.length ? currentMetrics : undefined);
  const conditions = read(annotations, CONDITIONS, goSlice(decodeCondition))?.value;
  put(v2Status, 'conditions', conditions?.length ? conditions.map(conditionFromGo) : undefined);

  return {
    ...hpa,
    apiVersion: 'autoscaling/v2',
    metadata: withAnnotations(meta, dropRoundTrip(annotations)),
    spec: v2Spec,
    status: v2Status,
  } as KubeObject;
}
