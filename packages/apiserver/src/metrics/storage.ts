import type { StorageBackend } from '@kapi/storage';
import type { MetricSet } from './definitions.js';
import type { HistogramSeries } from './fast-histogram.js';

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
  // `started` is an argument so it is read before the call it times begins (arguments are evaluated in order).
  const timed = <T>(operation: string, key: string, started: number, call: Promise<T>): Promise<T> => {
    const done = (failed: boolean) => {
      const type = typeOf(key);
      if (failed) metrics.etcdRequestErrors.add(operation, type);
      const series = seriesOf(operation, type);
      series.requests();
      series.duration.observe((performance.now() - started) / 1000);
    };
    return call.then(
      (value) => {
        done(false);
        return value;
      },
      (err: unknown) => {
        done(true);
        throw err;
      },
    );
  };
  return {
    currentRevision: () => backend.currentRevision(),
    get: (key, options) => timed('get', key, performance.now(), backend.get(key, options)),
    list: (options) => timed('list', options.prefix, performance.now(), backend.list(options)),
    count: (prefix) => timed('listWithCount', prefix, performance.now(), backend.count(prefix)),
    create: (key, value) => timed('create', key, performance.now(), backend.create(key, value)),
    update: (key, value, expected) => timed('update', key, performance.now(), backend.update(key, value, expected)),
    delete: (key, expected) => timed('delete', key, performance.now(), backend.delete(key, expected)),
    watch: (options, handlers) => backend.watch(options, handlers),
    compact: (revision) => backend.compact(revision),
    compactedRevision: () => backend.compactedRevision(),
    ...(backend.sizeBytes ? { sizeBytes: () => backend.sizeBytes!() } : {}),
    close: () => backend.close(),
  };
}
