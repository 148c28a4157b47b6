import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { configMap, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

/** One series' value, read from the server's registry (undefined when the series does not exist). */
async function value(harness: Harness, name: string, labels: Record<string, string>, suffix = ''): Promise<number | undefined> {
  const metric = harness.server.metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const series = `${name}${suffix}`;
  const found = values.find(
    (v) => ((v as { metricName?: string }).metricName ?? name) === series && Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
  );
  return found?.value;
}

const cm = { group: '', version: 'v1', resource: 'configmaps', subresource: '', component: 'apiserver' };

describe('/metrics', () => {
  it('serves the Prometheus text format with kube-apiserver metric names', async () => {
    h = await startHarness();
    await h.req('GET', '/api/v1/namespaces/default/configmaps');
    const res = await h.server.fetch(new Request('http://kapi.test/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'apiserver_request_total',
      'apiserver_request_duration_seconds',
      'apiserver_response_sizes',
      'apiserver_current_inflight_requests',
      'apiserver_longrunning_requests',
      'apiserver_storage_objects',
      'etcd_request_duration_seconds',
      'authentication_attempts',
      'apiserver_authorization_decisions_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain(
      'apiserver_request_total{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"} 1',
    );
  });

  it('counts requests by kube verb, scope, dry run and code', async () => {
    h = await startHarness();
    await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('a'));
    await h.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', configMap('b'));
    await h.req('GET', '/api/v1/namespaces/default/configmaps/a');
    await h.req('GET', '/api/v1/namespaces/default/configmaps/missing');
    await h.req('GET', '/api/v1/configmaps');
    await h.req('PATCH', '/api/v1/namespaces/default/configmaps/a?fieldManager=m', '{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {b: "2"}}', { 'content-type': 'application/apply-patch+yaml' });
    await h.req('DELETE', '/api/v1/namespaces/default/configmaps/a');
    const total = (labels: Record<string, string>) => value(h!, 'apiserver_request_total', labels);
    expect(await total({ ...cm, verb: 'POST', dry_run: '', scope: 'resource', code: '201' })).toBe(1);
    expect(await total({ ...cm, verb: 'POST', dry_run: 'All', scope: 'resource', code: '201' })).toBe(1);
    expect(await total({ ...cm, verb: 'GET', scope: 'resource', code: '200' })).toBe(1);
    expect(await total({ ...cm, verb: 'GET', scope: 'resource', code: '404' })).toBe(1);
    expect(await total({ ...cm, verb: 'LIST', scope: 'cluster', code: '200' })).toBe(1);
    expect(await total({ ...cm, verb: 'APPLY', scope: 'resource', code: '200' })).toBe(1);
    expect(await total({ ...cm, verb: 'DELETE', scope: 'resource', code: '200' })).toBe(1);
    // The latency histogram and response sizes (of reads) follow the same requests.
    expect(await value(h, 'apiserver_request_duration_seconds', { ...cm, verb: 'GET', scope: 'resource' }, '_count')).toBe(2);
    expect(await value(h, 'apiserver_response_sizes', { ...cm, verb: 'LIST', scope: 'cluster' }, '_count')).toBe(1);
    expect(await value(h, 'apiserver_response_sizes', { ...cm, verb: 'LIST', scope: 'cluster' }, '_sum')).toBeGreaterThan(50);
  });

  it('labels each request by its own verb, dry run and code when the same path repeats', async () => {
    h = await startHarness();
    const path = '/api/v1/namespaces/default/configmaps';
    await h.req('POST', path, configMap('a'));
    await h.req('POST', path, configMap('a'));
    await h.req('POST', `${path}?dryRun=All`, configMap('b'));
    await h.req('POST', `${path}?dryRun=bogus`, configMap('c'));
    await h.req('POST', `${path}?dryRun=All&dryRun=All`, configMap('d'));
    const object = `${path}/a`;
    await h.req('PATCH', object, { data: { m: '1' } }, { 'content-type': 'application/merge-patch+json' });
    await h.req('PATCH', `${object}?fieldManager=x`, '{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}', { 'content-type': 'application/apply-patch+yaml; charset=utf-8' });
    await h.req('PATCH', object, { data: { m: '2' } }, { 'content-type': 'application/merge-patch+json' });
    for (let i = 0; i < 3; i++) await h.req('GET', object);
    await h.req('HEAD', object);
    const total = (labels: Record<string, string>) => value(h!, 'apiserver_request_total', labels);
    expect(await total({ ...cm, verb: 'POST', dry_run: '', scope: 'resource', code: '201' })).toBe(1);
    expect(await total({ ...cm, verb: 'POST', dry_run: '', scope: 'resource', code: '409' })).toBe(1);
    expect(await total({ ...cm, verb: 'POST', dry_run: 'All', scope: 'resource', code: '201' })).toBe(2);
    expect(await total({ ...cm, verb: 'POST', dry_run: 'invalid', scope: 'resource', code: '400' })).toBe(1);
    expect(await total({ ...cm, verb: 'PATCH', dry_run: '', scope: 'resource', code: '200' })).toBe(2);
    expect(await total({ ...cm, verb: 'APPLY', dry_run: '', scope: 'resource', code: '200' })).toBe(1);
    expect(await total({ ...cm, verb: 'GET', dry_run: '', scope: 'resource', code: '200' })).toBe(4);
    expect(await value(h, 'apiserver_request_duration_seconds', { ...cm, verb: 'GET', scope: 'resource' }, '_count')).toBe(4);
    expect(await value(h, 'apiserver_response_sizes', { ...cm, verb: 'GET', scope: 'resource' }, '_count')).toBe(4);
    expect(await value(h, 'apiserver_response_sizes', { ...cm, verb: 'PATCH', scope: 'resource' }, '_count')).toBeUndefined();
  });

  it('does not grow label sets for resources the server does not serve', async () => {
    h = await startHarness();
    for (let i = 0; i < 5; i++) await h.req('GET', `/api/v1/invented${i}`);
    await h.req('GET', '/api/v1/namespaces/default/configmaps/a/nosuchsub');
    await h.req('GET', '/api/v1/namespaces/default/configmaps/a/constructor');
    const text = await (await h.server.fetch(new Request('http://kapi.test/metrics'))).text();
    expect(text).not.toContain('invented');
    expect(text).not.toContain('nosuchsub');
    expect(text).not.toContain('constructor');
  });

  it('counts watch events and open watchers, and the watch when it ends', async () => {
    h = await startHarness();
    await sleep(20);
    const controller = new AbortController();
    const res = await h.server.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps?watch=true', { signal: controller.signal }));
    const reader = res.body!.getReader();
    const watchLabels = { ...cm, verb: 'WATCH', scope: 'namespace' };
    expect(await value(h, 'apiserver_longrunning_requests', watchLabels)).toBe(1);
    await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('w'));
    await reader.read();
    await h.server.metrics.render();
    expect(await value(h, 'apiserver_registered_watchers', { group: '', version: 'v1', kind: 'ConfigMap' })).toBe(1);
    expect(await value(h, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' })).toBe(1);
    expect(await value(h, 'apiserver_watch_events_sizes', { group: '', version: 'v1', kind: 'ConfigMap' }, '_sum')).toBeGreaterThan(100);
    expect(await value(h, 'apiserver_request_total', { ...watchLabels, code: '200' })).toBeUndefined();
    await reader.cancel();
    controller.abort();
    await sleep(20);
    expect(await value(h, 'apiserver_longrunning_requests', watchLabels)).toBe(0);
    expect(await value(h, 'apiserver_request_total', { ...watchLabels, code: '200' })).toBe(1);
  });

  it('reads storage, admission and watch cache state', async () => {
    h = await startHarness();
    await sleep(20);
    const admitted = { name: 'NamespaceLifecycle', type: 'validate', operation: 'CREATE', rejected: 'false' };
    await h.server.metrics.render();
    const admittedBefore = (await value(h, 'apiserver_admission_controller_admission_duration_seconds', admitted, '_count')) ?? 0;
    for (const name of ['s1', 's2', 's3']) await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap(name));
    const rejected = await h.req('POST', '/api/v1/namespaces/nowhere/configmaps', configMap('x'));
    expect(rejected.status).toBe(404);
    await h.server.metrics.render();
    expect(await value(h, 'apiserver_storage_objects', { resource: 'configmaps' })).toBe(3);
    expect(await value(h, 'apiserver_storage_objects', { resource: 'namespaces' })).toBe(4);
    expect(await value(h, 'apiserver_watch_cache_events_received_total', { resource: 'configmaps' })).toBe(3);
    expect(await value(h, 'etcd_requests_total', { operation: 'create', type: 'configmaps' })).toBe(3);
    expect(await value(h, 'apiserver_admission_step_admission_duration_seconds', { type: 'validate', operation: 'CREATE', rejected: 'true' }, '_count')).toBe(1);
    expect(
      await value(h, 'apiserver_admission_controller_admission_duration_seconds', { name: 'NamespaceLifecycle', type: 'validate', operation: 'CREATE', rejected: 'true' }, '_count'),
    ).toBe(1);
    expect(await value(h, 'apiserver_admission_controller_admission_duration_seconds', admitted, '_count')).toBe(admittedBefore + 3);
  });

  it('counts requests refused in self-defense as terminations', async () => {
    h = await startHarness({}, { limits: { maxHeapBytes: 1 } });
    const res = await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('m'));
    expect(res.status).toBe(429);
    expect(await value(h, 'apiserver_request_terminations_total', { ...cm, verb: 'POST', scope: 'resource', code: '429' })).toBe(1);
    expect(await value(h, 'apiserver_request_total', { ...cm, verb: 'POST', scope: 'resource', code: '429' })).toBe(1);
  });

  it('counts audit events written', async () => {
    const lines: string[] = [];
    h = await startHarness({}, { audit: { write: (line) => void lines.push(line) } });
    await h.req('GET', '/api/v1/namespaces');
    await h.req('GET', '/api/v1/namespaces/default');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(await value(h, 'apiserver_audit_event_total', {})).toBe(lines.length);
    expect(await value(h, 'apiserver_audit_level_total', { level: 'Metadata' })).toBe(2);
  });
});

describe('/metrics/slis', () => {
  it('reports each health check\'s last result and counts them, as kube\'s SLI metrics', async () => {
    h = await startHarness();
    await h.req('GET', '/readyz');
    await h.req('GET', '/livez/ping');
    h.server.beginShutdown();
    await h.req('GET', '/readyz');
    const res = await h.server.fetch(new Request('http://kapi.test/metrics/slis'));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('kubernetes_healthcheck{name="shutdown",type="readyz"} 0');
    expect(text).toContain('kubernetes_healthcheck{name="etcd",type="readyz"} 1');
    expect(text).toContain('kubernetes_healthchecks_total{name="shutdown",type="readyz",status="success"} 1');
    expect(text).toContain('kubernetes_healthchecks_total{name="shutdown",type="readyz",status="error"} 1');
    expect(text).toContain('kubernetes_healthchecks_total{name="ping",type="livez",status="success"} 1');
  });
});

describe('Audit-Id', () => {
  it('is on every response, the client-sent one when it is sane', async () => {
    h = await startHarness();
    const mine = await h.req('GET', '/api/v1/namespaces', undefined, { 'audit-id': 'my-request-1' });
    expect(mine.headers.get('audit-id')).toBe('my-request-1');
    const generated = await h.req('GET', '/nowhere');
    expect(generated.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await h.req('GET', '/version', undefined, { 'audit-id': 'x'.repeat(200) });
    expect(hostile.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
