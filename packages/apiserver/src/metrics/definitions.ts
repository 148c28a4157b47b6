import type { Registry } from 'prom-client';
import { promClient } from './prom-client.js';
import { FastHistogram } from './fast-histogram.js';
import { talliedCounter } from './tally.js';

/** kube's buckets for request and storage latencies (apiserver_request_duration_seconds, etcd_request_duration_seconds). */
const LATENCY_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** kube's admission latency buckets. */
const ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const exponential = (start: number, factor: number, count: number) => Array.from({ length: count }, (_, i) => start * factor ** i);

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const ROUTE_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const GVK = ['group', 'version', 'kind'] as const;
const ADMISSION_STEP = ['type', 'operation', 'rejected'] as const;

/**
 * The metrics of one API server, with kube-apiserver's names, help texts, labels and buckets (k8s.io/apiserver's
 * endpoints, storage, cacher, admission, audit and authn/authz metrics), so dashboards and alerts written for
 * kube-apiserver read Kapi unchanged. Each server has its own registry: servers in one process do not mix counts.
 */
export function defineMetrics(registry: Registry) {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => talliedCounter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new promClient.Gauge<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new FastHistogram<L>(name, help, buckets, labelNames, registry);
  return {
    requestTotal: counter(
      'apiserver_request_total',
      'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      [...REQUEST_LABELS, 'code'],
    ),
    requestDuration: histogram(
      'apiserver_request_duration_seconds',
      'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      LATENCY_BUCKETS,
      REQUEST_LABELS,
    ),
    responseSizes: histogram(
      'apiserver_response_sizes',
      'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      exponential(1000, 10, 7),
      ROUTE_LABELS,
    ),
    longRunning: gauge(
      'apiserver_longrunning_requests',
      'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      ROUTE_LABELS,
    ),
    currentInflight: gauge(
      'apiserver_current_inflight_requests',
      'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      ['request_kind'],
    ),
    requestTerminations: counter(
      'apiserver_request_terminations_total',
      'Number of requests which apiserver terminated in self-defense.',
      [...ROUTE_LABELS, 'code'],
    ),
    flowcontrolRejected: counter(
      'apiserver_flowcontrol_rejected_requests_total',
      'Number of requests rejected by API Priority and Fairness subsystem',
      ['flow_schema', 'priority_level', 'reason'],
    ),
    requestedDeprecatedApis: gauge(
      'apiserver_requested_deprecated_apis',
      'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      ['group', 'version', 'resource', 'subresource', 'removed_release'],
    ),
    registeredWatchers: gauge('apiserver_registered_watchers', 'Number of currently registered watchers for a given resources', GVK),
    watchEvents: counter('apiserver_watch_events_total', 'Number of events sent in watch clients', GVK),
    watchEncodings: counter('kapi_watch_event_encodings_total', 'Number of times a live watch event was encoded (once per version and media type however many watchers get it)', GVK),
    watchEventSizes: histogram('apiserver_watch_events_sizes', 'Watch event size distribution in bytes', exponential(1024, 2, 8), GVK),
    etcdRequestDuration: histogram('etcd_request_duration_seconds', 'Etcd request latency in seconds for each operation and object type.', LATENCY_BUCKETS, [
      'operation',
      'type',
    ]),
    etcdRequests: counter('etcd_requests_total', 'Etcd request counts for each operation and object type.', ['operation', 'type']),
    etcdRequestErrors: counter('etcd_request_errors_total', 'Etcd failed request counts for each operation and object type.', ['operation', 'type']),
    storageObjects: gauge('apiserver_storage_objects', 'Number of stored objects at the time of last check split by kind.', ['resource']),
    storageSize: gauge('apiserver_storage_size_bytes', 'Size of the storage database file physically allocated in bytes.', ['storage_cluster_id']),
    watchCacheEventsReceived: counter('apiserver_watch_cache_events_received_total', 'Counter of events received in watch cache broken by resource type.', [
      'resource',
    ]),
    watchCacheEventsDispatched: counter(
      'apiserver_watch_cache_events_dispatched_total',
      'Counter of events dispatched in watch cache broken by resource type.',
      ['resource'],
    ),
    watchCacheInitializations: counter('apiserver_watch_cache_initializations_total', 'Counter of watch cache initializations broken by resource type.', [
      'resource',
    ]),
    watchCacheResourceVersion: gauge('apiserver_watch_cache_resource_version', 'Current resource version of watch cache broken by resource type.', [
      'resource',
    ]),
    admissionStep: histogram(
      'apiserver_admission_step_admission_duration_seconds',
      'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      ADMISSION_BUCKETS,
      ADMISSION_STEP,
    ),
    admissionController: histogram(
      'apiserver_admission_controller_admission_duration_seconds',
      'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      ADMISSION_BUCKETS,
      ['name', ...ADMISSION_STEP],
    ),
    webhookAdmission: histogram(
      'apiserver_admission_webhook_admission_duration_seconds',
      'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      ADMISSION_BUCKETS,
      ['name', 'type', 'operation', 'rejected'],
    ),
    webhookRequests: counter(
      'apiserver_admission_webhook_request_total',
      'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      ['name', 'type', 'operation', 'code', 'rejected'],
    ),
    webhookRejections: counter(
      'apiserver_admission_webhook_rejection_count',
      'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      ['name', 'type', 'operation', 'error_type', 'rejection_code'],
    ),
    webhookFailOpen: counter(
      'apiserver_admission_webhook_fail_open_count',
      'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
      ['name', 'type'],
    ),
    auditEvents: counter('apiserver_audit_event_total', 'Counter of audit events generated and sent to the audit backend.'),
    auditErrors: counter('apiserver_audit_error_total', 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', [
      'plugin',
    ]),
    auditLevels: counter('apiserver_audit_level_total', 'Counter of policy levels for audit events (1 per request).', ['level']),
    authenticatedUserRequests: counter('authenticated_user_requests', 'Counter of authenticated requests broken out by username.', ['username']),
    authenticationAttempts: counter('authentication_attempts', 'Counter of authenticated attempts.', ['result']),
    authorizationAttempts: counter('authorization_attempts_total', 'Counter of authorization attempts broken down by result. It can be either \'allowed\', \'denied\', \'no-opinion\' or \'error\'.', [
      'result',
    ]),
    authorizationDecisions: counter('apiserver_authorization_decisions_total', 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.', [
      'type',
      'name',
      'decision',
    ]),
  };
}

export type MetricSet = ReturnType<typeof defineMetrics>;
