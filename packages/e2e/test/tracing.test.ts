import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';
import { startOtlpCollector } from './otlp-collector.js';
import { eventually } from './storage-helpers.js';

const kubectlPath = kubectlBinaries()[0]?.path;

describe.skipIf(!kubectlPath)('--tracing-config-file', () => {
  let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
  let server: ServerProcess;
  beforeAll(async () => {
    collector = await startOtlpCollector();
    const config = join(mkdtempSync(join(tmpdir(), 'kapi-tracing-')), 'tracing.yaml');
    writeFileSync(config, `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: ${collector.endpoint}\nsamplingRatePerMillion: 1000000\n`);
    server = await startServerProcess([`--tracing-config-file=${config}`]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await collector?.close();
  });

  it("exports a span per kubectl request over OTLP gRPC, with the storage calls as the request span's children", async () => {
    const admin = kubectlRunner(kubectlPath!, server.kubeconfig);
    kubectlOk(admin, 'create', 'configmap', 'traced', '--from-literal=a=1');
    kubectlOk(admin, 'get', 'configmap', 'traced', '-o', 'name');
    const create = await eventually(async () => collector.spans.find((s) => s.name === 'POST /api/v1/namespaces/{:namespace}/configmaps'), 150, 100);
    expect(collector.calls).toContain('/opentelemetry.proto.collector.trace.v1.TraceService/Export');
    expect(create).toMatchObject({
      service: 'apiserver',
      attributes: { 'http.method': 'POST', 'http.status_code': 201, 'user_agent.original': expect.stringMatching(/^kubectl/) },
    });
    expect(String(create!.attributes['http.target'])).toMatch(/^\/api\/v1\/namespaces\/default\/configmaps\?/);
    const stored = collector.spans.find((s) => s.name === 'Create etcd3' && s.traceId === create!.traceId);
    expect(stored).toMatchObject({ parentSpanId: create!.spanId, attributes: { key: '/registry/configmaps/default/traced', resource: 'configmaps' } });
    expect(stored!.attributes['audit-id']).toBe(create!.attributes['audit-id']);
    const get = await eventually(async () => collector.spans.find((s) => s.name === 'GET /api/v1/namespaces/{:namespace}/configmaps/{:name}'), 150, 100);
    expect(get!.attributes['http.status_code']).toBe(200);
    // Spans leave in batches, every 5 seconds (OpenTelemetry's default).
  }, 40_000);
});
