// autoscaling/v2's SetDefaults_HorizontalPodAutoscalerBehavior (pkg/apis/autoscaling/v2/defaults.go): a behavior
// that is set has every rule the client left out filled from kube's defaults, field by field.
import { isObj, type Obj, type TypeDefaulter } from '@kapi/apimachinery';

/** defaultHPAScaleUpRules */
const scaleUpDefaults = (): Obj => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
/** defaultHPAScaleDownRules (no stabilization window: the controller's flag decides it) */
const scaleDownDefaults = (): Obj => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** copyHPAScalingRules: what the client set (a list, even empty, included) over the defaults. */
function withDefaults(from: unknown, defaults: Obj): Obj {
  if (!isObj(from)) return defaults;
  // in kube's field order: stabilizationWindowSeconds, selectPolicy, policies, tolerance
  const out: Obj = {};
  for (const key of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) {
    const value = from[key] !== undefined && from[key] !== null ? from[key] : defaults[key];
    if (value !== undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(from)) if (!(key in out)) out[key] = value;
  return out;
}

/** For `autoscaling/v2/HorizontalPodAutoscalerBehavior`. */
export const hpaBehaviorDefaulter: TypeDefaulter = (behavior) => {
  const scaleUp = withDefaults(behavior.scaleUp, scaleUpDefaults());
  const scaleDown = withDefaults(behavior.scaleDown, scaleDownDefaults());
  // in kube's field order (scaleUp, scaleDown, then anything else), as a defaulted Go struct is written
  const rest = Object.entries(behavior).filter(([key]) => key !== 'scaleUp' && key !== 'scaleDown');
  for (const key of Object.keys(behavior)) delete behavior[key];
  Object.assign(behavior, { scaleUp, scaleDown }, Object.fromEntries(rest));
};

/** kube's DefaultCPUUtilization: the target of the metric an HPA without metrics gets. */
const DEFAULT_CPU_UTILIZATION = 80;

/**
 * For `autoscaling/v2/HorizontalPodAutoscalerSpec`: SetDefaults_HorizontalPodAutoscaler gives a spec without metrics
 * one CPU utilization target of 80%, placed where Go writes `metrics` (after maxReplicas, before behavior).
 */
export const hpaSpecDefaulter: TypeDefaulter = (spec) => {
  if (Array.isArray(spec.metrics) && spec.metrics.length) return;
  const metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  const entries = Object.entries(spec).filter(([key]) => key !== 'metrics');
  const before = new Set(['scaleTargetRef', 'minReplicas', 'maxReplicas']);
  for (const key of Object.keys(spec)) delete spec[key];
  Object.assign(spec, Object.fromEntries(entries.filter(([key]) => before.has(key))), { metrics }, Object.fromEntries(entries.filter(([key]) => !before.has(key))));
};

/**
 * For `autoscaling/v1/HorizontalPodAutoscaler` and `autoscaling/v2/HorizontalPodAutoscaler`: an object without a
 * spec has the zero spec, as kube's decoding leaves it (then defaulted, and judged by the validation: maxReplicas 0,
 * no scaleTargetRef), rather than the schema's `spec: Required value`.
 */
export const hpaDefaulter: TypeDefaulter = (hpa) => {
  if (hpa.spec === undefined || hpa.spec === null) hpa.spec = {};
};

/**
 * For `autoscaling/v2/MetricIdentifier`: kube validates no metric selector, so a requirement without `key` or
 * `operator` is stored as Go decodes it, with empty strings (written, as metav1.LabelSelectorRequirement's fields
 * are not omitempty).
 */
export const metricIdentifierDefaulter: TypeDefaulter = (metric) => {
  const selector = metric.selector;
  if (!isObj(selector) || !Array.isArray(selector.matchExpressions)) return;
  selector.matchExpressions = selector.matchExpressions.map((r: unknown) => {
    if (!isObj(r) || (typeof r.key === 'string' && typeof r.operator === 'string')) return r;
    const { key, operator, ...rest } = r;
    return { key: key ?? '', operator: operator ?? '', ...rest };
  });
};
