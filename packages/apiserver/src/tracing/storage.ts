import type { Attributes, TracerProvider } from '@opentelemetry/api';
import type { StorageBackend } from '@kapi/storage';
import { observedStorage, type StorageOperation } from '../storage/observed.js';
import { auditIdContextKey, otelApi, TRACER_NAME } from './context.js';

/** kube's etcd3 span names where it has them, the same pattern where it does not. */
const SPAN_NAMES: Record<StorageOperation, string> = {
  get: 'Get etcd3',
  list: 'List(recursive=true) etcd3',
  listWithCount: 'Count etcd3',
  create: 'Create etcd3',
  update: 'GuaranteedUpdate etcd3',
  delete: 'Delete etcd3',
};

/**
 * The backend with a span around each request, a child of the request's span (the active context). Names follow
 * kube's etcd3 store spans where it has them (`Create etcd3`, `GuaranteedUpdate etcd3`, `List(recursive=true) etcd3`)
 * and the same pattern otherwise (`Get etcd3`, `Delete etcd3`, `Count etcd3`), whatever the backend; attributes are
 * kube's: the request's audit ID, the key, the resource.
 */
export function tracedStorage(backend: StorageBackend, provider: TracerProvider, resourceOf: (key: string) => string): StorageBackend {
  const tracer = provider.getTracer(TRACER_NAME);
  const { context, SpanKind, SpanStatusCode } = otelApi();
  const AUDIT_ID = auditIdContextKey();
  return observedStorage(backend, (operation, key, list) => {
    const active = context.active();
    const auditID = active.getValue(AUDIT_ID);
    const attributes: Attributes = { key, resource: resourceOf(key) };
    if (list?.revision) attributes.resourceVersion = String(list.revision);
    if (list?.limit) attributes.limit = list.limit;
    if (typeof auditID === 'string') attributes['audit-id'] = auditID;
    const span = tracer.startSpan(SPAN_NAMES[operation], { kind: SpanKind.INTERNAL, attributes }, active);
    return (failed, error) => {
      if (failed) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      }
      span.end();
    };
  });
}
