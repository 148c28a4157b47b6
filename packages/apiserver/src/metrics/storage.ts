import type { StorageBackend } from '@kapi/storage';
import type { MetricSet } from './definitions.js';

type Metrics = Pick<MetricSet, 'etcdRequestDuration' | 'etcdRequests' | 'etcdRequestErrors'>;

/**
 * The backend with kube's storage metrics around each request (k8s.io/apiserver's etcd3 store records them for
 * every backend the same way): `etcd_request_duration_seconds`, `etcd_requests_total` and
 * `etcd_request_errors_total` by operation (get, list, listWithCount, create, update, delete) and type, the
 * resource the key belongs to as kube writes a group resource (`pods`, `deployments.apps`).
 */
export function instrumentedStorage(backend: StorageBackend, metrics: Metrics, typeOf: (key: string) => string): StorageBackend {
  const timed = async <T>(operation: string, key: string, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const labels = { operation, type: typeOf(key) };
    try {
      return await call();
    } catch (err) {
      metrics.etcdRequestErrors.inc(labels);
      throw err;
    } finally {
      metrics.etcdRequests.inc(labels);
      metrics.etcdRequestDuration.observe(labels, (performance.now() - started) / 1000);
    }
  };
  return {
    currentRevision: () => backend.currentRevision(),
    get: (key, options) => timed('get', key, () => backend.get(key, options)),
    list: (options) => timed('list', options.prefix, () => backend.list(options)),
    count: (prefix) => timed('listWithCount', prefix, () => backend.count(prefix)),
    create: (key, value) => timed('create', key, () => backend.create(key, value)),
    update: (key, value, expected) => timed('update', key, () => backend.update(key, value, expected)),
    delete: (key, expected) => timed('delete', key, () => backend.delete(key, expected)),
    watch: (options, handlers) => backend.watch(options, handlers),
    compact: (revision) => backend.compact(revision),
    compactedRevision: () => backend.compactedRevision(),
    close: () => backend.close(),
  };
}
