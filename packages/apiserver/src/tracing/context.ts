import { createContextKey } from '@opentelemetry/api';

/** The tracer Kapi's spans come from. */
export const TRACER_NAME = '@kapi/apiserver';

/** The request's audit ID in the active OpenTelemetry context: storage spans carry it, as kube's etcd3 spans do. */
export const AUDIT_ID = createContextKey('kapi.audit-id');
