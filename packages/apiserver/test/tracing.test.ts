import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spanName, tokenFileAuthenticator } from '../src/index.js';
import { configMap, startHarness, type Harness } from './harness.js';

// What NodeTracerProvider.register() installs in a server process: a context manager and the W3C propagator.
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

const TOKENS = ['admin-token,admin,1,system:masters', 'alice-token,alice,2,'].join('\n');
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
  exporter.reset();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const requestSpans = () => exporter.getFinishedSpans().filter((s) => s.attributes['http.method'] !== undefined);

describe('tracing (kube --tracing-config-file)', () => {
  it('makes a span per request named by its route, with the storage calls as children', async () => {
    h = await startHarness({}, { tracerProvider: provider });
    exporter.reset();
    const created = await h.req('POST', '/api/v1/namespaces/default/configmaps?fieldManager=t', configMap('a'));
    expect(created.status).toBe(201);
    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === 'POST /api/v1/namespaces/{:namespace}/configmaps');
    expect(request?.attributes).toMatchObject({
      'http.method': 'POST',
      'http.target': '/api/v1/namespaces/default/configmaps?fieldManager=t',
      'http.status_code': 201,
      'audit-id': created.headers.get('audit-id'),
    });
    const create = spans.find((s) => s.name === 'Create etcd3');
    expect(create?.spanContext().traceId).toBe(request!.spanContext().traceId);
    expect(parentOf(create!)).toBe(request!.spanContext().spanId);
    expect(create?.attributes).toMatchObject({ key: '/registry/configmaps/default/a', resource: 'configmaps', 'audit-id': created.headers.get('audit-id') });
  });

  it("continues a privileged client's trace, and only links an unprivileged client's", async () => {
    h = await startHarness({}, { tracerProvider: provider, authenticators: [tokenFileAuthenticator(TOKENS)] });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    exporter.reset();
    await h.req('GET', '/api/v1/namespaces/default/configmaps/x', undefined, { authorization: 'Bearer admin-token', traceparent });
    const [admin] = requestSpans();
    expect(admin.name).toBe('GET /api/v1/namespaces/{:namespace}/configmaps/{:name}');
    expect(admin.spanContext().traceId).toBe(traceId);
    expect(parentOf(admin)).toBe('00f067aa0ba902b7');
    expect(admin.attributes['http.status_code']).toBe(404);

    exporter.reset();
    await h.req('GET', '/api/v1/namespaces/default/configmaps', undefined, { authorization: 'Bearer alice-token', traceparent });
    const [alice] = requestSpans();
    expect(alice.spanContext().traceId).not.toBe(traceId);
    expect(parentOf(alice)).toBeUndefined();
    expect(alice.links.map((l) => l.context.traceId)).toEqual([traceId]);
  });

  it('ends a watch span when the watch ends, and names non-resource requests by their method', async () => {
    h = await startHarness({}, { tracerProvider: provider });
    await h.req('GET', '/version');
    expect(requestSpans().map((s) => s.name)).toContain('GET');
    exporter.reset();
    const controller = new AbortController();
    const res = await h.server.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps?watch=true', { signal: controller.signal }));
    const reader = res.body!.getReader();
    await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('w'));
    await reader.read();
    expect(requestSpans().map((s) => s.name)).not.toContain('GET /api/v1/namespaces/{:namespace}/configmaps');
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 20));
    expect(requestSpans().map((s) => s.name)).toContain('GET /api/v1/namespaces/{:namespace}/configmaps');
  });

  it('names spans as kube does', () => {
    const info = { verb: 'get', group: 'apps', version: 'v1', namespace: 'ns', resource: 'deployments', subresource: 'scale', name: 'web' } as const;
    expect(spanName('GET', info)).toBe('GET /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/scale');
    expect(spanName('GET', { ...info, group: '', namespace: '', name: '', subresource: '', resource: 'nodes', verb: 'list' })).toBe('GET /api/v1/nodes');
    expect(spanName('GET', undefined)).toBe('GET');
  });
});
