import type { StorageBackend } from '@kapi/storage';
import type { MetricSet } from './definitions.js';
import type { HistogramSeries } from './fast-histogram.js';
import { observedStorage } from '../storage/observed.js';

type Metrics = Pick<MetricSet, 'etcdRequestDuration' | 'etcdRequests' | 'etcdRequestErrors'>;

/**
 * The backend with kube's storage metrics around each request (k8s.io/apiserver's etcd3 store records them for
 * every backend the same way): `etcd_request_duration_seconds`, `etcd_requests_total` and
 * `etcd_request_errors_total` by operation (get, list, listWithCount, create, update, delete) and type, the
 * resource the key belongs to as kube writes a group resource (`pods`, `deployments.apps`).
 */
export function instrumentedStorage(backend: StorageBackend, metrics: Metrics, typeOf: (key: string) => string): StorageBackend {
  /** The bound series of an operation on a resource, found by one lookup (both have few values). */
  const bound = new Map<string, { requests: () => void; duration: HistogramSeries }>();
  const seriesOf = (operation: string, type: string) => {
    const key = `${operation} ${type}`;
    let series = bound.get(key);
    if (!series) {
      series = { requests: metrics.etcdRequests.bind(operation, type), duration: metrics.etcdRequestDuration.labels(operation, type) };
      bound.set(key, series);
    }
    return series;
  };
  return observedStorage(backend, (operation, key) => {
    const started = performance.now();
    return (failed) => {
      const type = typeOf(key);
      if (failed) metrics.etcdRequestErrors.add(operation, type);
      const series = seriesOf(operation, type);
      series.requests();
      series.duration.observe((performance.now() - started) / 1000);
    };
  });
}
