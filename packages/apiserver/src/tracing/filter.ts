import type { Link, TracerProvider } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { requestAuditId } from '../endpoints/audit-id.js';
import { onBodyEnd } from '../endpoints/response-end.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { requestFacts } from '../limits/long-running.js';
import { contextUser } from '../limits/middleware.js';
import { auditIdContextKey, otelApi, TRACER_NAME } from './context.js';

/** Groups whose trace context kube trusts (its notSystemPrivilegedGroup): others' becomes a link, not a parent. */
const TRUSTED_GROUPS = ['system:masters', 'system:monitoring'];

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/** kube's span name: the method and the route with its namespace and name as placeholders, or the method alone. */
export function spanName(method: string, info: RequestInfo | undefined): string {
  if (!info) return method;
  let route = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  if (info.namespace) route += '/namespaces/{:namespace}';
  route += `/${info.resource}`;
  if (info.name) route += '/{:name}';
  if (info.subresource) route += `/${info.subresource}`;
  return `${method} ${route}`;
}

/**
 * kube's WithTracing (an otelhttp handler named KubernetesAPI, after authentication): one SERVER span per request,
 * its storage calls as children. A W3C `traceparent` from a member of system:masters or system:monitoring is the
 * span's parent; anyone else's is only linked, so clients cannot graft their spans into the server's traces. The
 * span of a streamed response (a watch) ends with its body. Child spans find the request's span through the active
 * OpenTelemetry context, so the process must have a context manager (NodeTracerProvider.register() installs one).
 */
export function withTracing(provider: TracerProvider): MiddlewareHandler {
  const tracer = provider.getTracer(TRACER_NAME);
  const { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } = otelApi();
  const AUDIT_ID = auditIdContextKey();
  return async (c, next) => {
    const request = c.req.raw;
    const { url, info, longRunning } = requestFacts(c);
    const incoming = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
    const trusted = contextUser(c)?.groups.some((g) => TRUSTED_GROUPS.includes(g)) ?? false;
    const incomingSpan = trace.getSpanContext(incoming);
    const links: Link[] = !trusted && incomingSpan && trace.isSpanContextValid(incomingSpan) ? [{ context: incomingSpan }] : [];
    const parent = trusted ? incoming : ROOT_CONTEXT;
    const auditID = requestAuditId(c);
    const span = tracer.startSpan(
      spanName(request.method, info),
      {
        kind: SpanKind.SERVER,
        links,
        attributes: {
          'http.method': request.method,
          'http.target': url.pathname + url.search,
          'http.scheme': url.protocol.replace(/:$/, ''),
          'user_agent.original': request.headers.get('user-agent') ?? '',
          'audit-id': auditID,
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span).setValue(AUDIT_ID, auditID);
    try {
      await context.with(active, next);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    }
    const res = c.res;
    span.setAttribute('http.status_code', res.status);
    // otelhttp's server spans: an error status for 5xx only (a 4xx is the client's).
    if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (longRunning && res.body) c.res = new Response(onBodyEnd(res.body, () => span.end()), res);
    else span.end();
  };
}
