import { newBadRequest } from '@kapi/apimachinery';
import type { MetricSet } from '../metrics/definitions.js';
import type { HistogramSeries } from '../metrics/fast-histogram.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

/** An ordered admission chain (k8s.io/apiserver admission/chain.go): all mutations, then all validations. */
export interface AdmissionChain {
  /** Runs every plugin's `mutate` for the operation, in order; the first rejection ends the request. */
  mutate(attrs: AdmissionAttributes): Promise<void>;
  /** Runs every plugin's `validate`, in order, on the final object. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}

type AdmissionMetrics = Pick<MetricSet, 'admissionStep' | 'admissionController'>;

const handles = (plugin: AdmissionPlugin, attrs: AdmissionAttributes) => {
  if (plugin.operations && !plugin.operations.includes(attrs.operation)) return false;
  if (attrs.dryRun && (plugin.sideEffects === 'Some' || plugin.sideEffects === 'Unknown')) {
    throw newBadRequest(`admission plugin "${plugin.name}" has side effects and does not support dry run`);
  }
  return true;
};

/**
 * The chain, timing each step and each plugin into kube's `apiserver_admission_step_admission_duration_seconds` and
 * `apiserver_admission_controller_admission_duration_seconds` (type admit or validate, operation, rejected).
 */
export function createAdmissionChain(plugins: readonly AdmissionPlugin[], metrics?: AdmissionMetrics): AdmissionChain {
  // Each plugin's series of a step and operation that was not rejected, bound once (a write runs every plugin twice).
  const admitted = new WeakMap<AdmissionPlugin, Map<string, HistogramSeries>>();
  const observe = (m: AdmissionMetrics, plugin: AdmissionPlugin, seconds: number, type: string, operation: string, rejected: boolean) => {
    if (rejected) return m.admissionController.record(seconds, plugin.name, type, operation, 'true');
    let series = admitted.get(plugin);
    if (!series) admitted.set(plugin, (series = new Map()));
    const step = `${type} ${operation}`;
    let bound = series.get(step);
    if (!bound) series.set(step, (bound = m.admissionController.labels(plugin.name, type, operation, 'false')));
    bound.observe(seconds);
  };
  const run = async (type: 'admit' | 'validate', attrs: AdmissionAttributes) => {
    const stepStarted = performance.now();
    let rejected = false;
    try {
      for (const plugin of plugins) {
        const call = type === 'admit' ? plugin.mutate : plugin.validate;
        if (!call || !handles(plugin, attrs)) continue;
        const started = performance.now();
        try {
          // A plugin with nothing to do here is not called; one that answers at once is not awaited.
          const done = !plugin.matches || plugin.matches(attrs) ? call.call(plugin, attrs) : undefined;
          if (done !== undefined) await done;
        } catch (err) {
          rejected = true;
          throw err;
        } finally {
          if (metrics) observe(metrics, plugin, (performance.now() - started) / 1000, type, attrs.operation, rejected);
        }
      }
    } catch (err) {
      rejected = true;
      throw err;
    } finally {
      metrics?.admissionStep.record((performance.now() - stepStarted) / 1000, type, attrs.operation, String(rejected));
    }
  };
  return {
    mutate: (attrs) => run('admit', attrs),
    validate: (attrs) => run('validate', attrs),
  };
}
