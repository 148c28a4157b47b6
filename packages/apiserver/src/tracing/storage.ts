import { context, SpanKind, SpanStatusCode, type Attributes, type TracerProvider } from '@opentelemetry/api';
import type { StorageBackend } from '@kapi/storage';
import { AUDIT_ID, TRACER_NAME } from './context.js';

/**
 * The backend with a span around each request, a child of the request's span (the active context). Names follow
 * kube's etcd3 store spans where it has them (`Create etcd3`, `GuaranteedUpdate etcd3`, `List(recursive=true) etcd3`)
 * and the same pattern otherwise (`Get etcd3`, `Delete etcd3`, `Count etcd3`), whatever the backend; attributes are
 * kube's: the request's audit ID, the key, the resource.
 */
export function tracedStorage(backend: StorageBackend, provider: TracerProvider, resourceOf: (key: string) => string): StorageBackend {
  const tracer = provider.getTracer(TRACER_NAME);
  const traced = <T>(name: string, key: string, call: () => Promise<T>, extra: Attributes = {}): Promise<T> => {
    const active = context.active();
    const auditID = active.getValue(AUDIT_ID);
    const attributes: Attributes = { key, resource: resourceOf(key), ...extra };
    if (typeof auditID === 'string') attributes['audit-id'] = auditID;
    const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, active);
    return call().then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
        span.end();
        throw err;
      },
    );
  };
  return {
    currentRevision: () => backend.currentRevision(),
    get: (key, options) => traced('Get etcd3', key, () => backend.get(key, options)),
    list: (options) =>
      traced('List(recursive=true) etcd3', options.prefix, () => backend.list(options), {
        ...(options.revision ? { resourceVersion: String(options.revision) } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
      }),
    count: (prefix) => traced('Count etcd3', prefix, () => backend.count(prefix)),
    create: (key, value) => traced('Create etcd3', key, () => backend.create(key, value)),
    update: (key, value, expected) => traced('GuaranteedUpdate etcd3', key, () => backend.update(key, value, expected)),
    delete: (key, expected) => traced('Delete etcd3', key, () => backend.delete(key, expected)),
    watch: (options, handlers) => backend.watch(options, handlers),
    compact: (revision) => backend.compact(revision),
    compactedRevision: () => backend.compactedRevision(),
    ...(backend.sizeBytes ? { sizeBytes: () => backend.sizeBytes!() } : {}),
    close: () => backend.close(),
  };
}
