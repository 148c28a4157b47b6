import { requireLazily } from '@kapi/apimachinery';

/**
 * The OpenTelemetry API, loaded when tracing is set up. Its CommonJS build, the one prom-client's process metrics load
 * (the ES build is 50 more modules), and OpenTelemetry's global registry serves both builds alike.
 */
export const otelApi = requireLazily<typeof import('@opentelemetry/api')>(import.meta.url, '@opentelemetry/api');

/** The tracer Kapi's spans come from. */
export const TRACER_NAME = '@kapi/apiserver';

let auditIdKey: symbol | undefined;

/** The request's audit ID in the active OpenTelemetry context: storage spans carry it, as kube's etcd3 spans do. */
export function auditIdContextKey(): symbol {
  return (auditIdKey ??= otelApi().createContextKey('kapi.audit-id'));
}
