// The annotations a v1 HorizontalPodAutoscaler keeps what only v2 can say in (pkg/apis/autoscaling/annotations.go).
import type { Obj } from '@kapi/apimachinery';

/** v2 metrics other than the CPU utilization target, as v1 alpha MetricSpecs. */
export const METRIC_SPECS = 'autoscaling.alpha.kubernetes.io/metrics';
/** status.currentMetrics, all of them, as v1 alpha MetricStatuses. */
export const METRIC_STATUSES = 'autoscaling.alpha.kubernetes.io/current-metrics';
/** status.conditions, as v1 HorizontalPodAutoscalerConditions. */
export const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
/** spec.behavior, as kube's internal type. */
export const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';

export const ROUND_TRIP_ANNOTATIONS = [METRIC_SPECS, BEHAVIOR, METRIC_STATUSES, CONDITIONS] as const;

/**
 * Annotations without the round-trip ones (kube's DropRoundTripHorizontalPodAutoscalerAnnotations): the same object
 * when it has none of them, else a copy.
 */
export function dropRoundTrip(annotations: Obj | undefined): Obj | undefined {
  if (!annotations || !ROUND_TRIP_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k))) return annotations;
  const out = { ...annotations };
  for (const k of ROUND_TRIP_ANNOTATIONS) delete out[k];
  return out;
}
