import type { TracerProvider } from '@opentelemetry/api';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A library only tracing uses, loaded when --tracing-config-file is given: a start without it does not load it. */
const load = <T>(id: string): T => createRequire(import.meta.url)(id) as T;

/** kube's TracingConfiguration (apiserver.config.k8s.io), as `--tracing-config-file` gives it. */
export interface TracingConfig {
  /** The OpenTelemetry collector's OTLP gRPC address, `host:port` (default `localhost:4317`). */
  endpoint: string;
  /** Spans sampled per million requests that carry no sampled trace context (default 0). */
  samplingRatePerMillion: number;
}

const API_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1'];
const DEFAULT_ENDPOINT = 'localhost:4317';

/** The exporter's URL for an endpoint: kube's endpoints are `host:port`, plain gRPC. */
const collectorUrl = (endpoint: string) => (endpoint.includes('://') ? endpoint : `http://${endpoint}`);

/** Reads and validates the file as kube-apiserver does at start: a bad file fails the start. */
export function loadTracingConfig(path: string): TracingConfig {
  const fail = (message: string) => new Error(`failed to read tracing config file "${path}": ${message}`);
  let doc: Record<string, unknown>;
  try {
    const { parse } = load<typeof import('yaml')>('yaml');
    doc = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw fail((error as Error).message);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw fail('not a TracingConfiguration object');
  if (doc.kind !== 'TracingConfiguration' || !API_VERSIONS.includes(String(doc.apiVersion))) {
    throw fail(`no kind "${String(doc.kind)}" is registered for version "${String(doc.apiVersion)}"; want TracingConfiguration in ${API_VERSIONS.join(', ')}`);
  }
  const endpoint = doc.endpoint ?? DEFAULT_ENDPOINT;
  if (typeof endpoint !== 'string' || endpoint === '') throw fail('endpoint: Invalid value: must be a host:port string');
  try {
    new URL(collectorUrl(endpoint));
  } catch {
    throw fail(`endpoint: Invalid value: ${JSON.stringify(endpoint)}: not a valid address`);
  }
  const rate = doc.samplingRatePerMillion ?? 0;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 0 || rate > 1_000_000) {
    throw fail(`samplingRatePerMillion: Invalid value: ${JSON.stringify(rate)}: must be an integer from 0 to 1000000`);
  }
  return { endpoint, samplingRatePerMillion: rate };
}

/** A started tracer provider: what the ApiServer is given, and how to flush it at exit. */
export interface Tracing {
  provider: TracerProvider;
  shutdown(): Promise<void>;
}

/**
 * The process's tracer provider, as kube-apiserver sets one up: service name `apiserver`, parent-based sampling at
 * the configured rate, batches of spans exported over OTLP gRPC. Registering it installs the context manager and the
 * W3C trace context propagator the ApiServer's spans rely on. The SDK is loaded only when tracing is configured (it
 * adds a quarter of a second to the start): the provider returned at once delegates to it once it is loaded.
 */
export function startTracing(config: TracingConfig): Tracing & { ready: Promise<void> } {
  // The API's CommonJS build, as @kapi/apiserver's spans use it (the SDK's ES build shares its global registry).
  const { ProxyTracerProvider } = load<typeof import('@opentelemetry/api')>('@opentelemetry/api');
  const proxy = new ProxyTracerProvider();
  let shutdown = async () => {};
  const ready = (async () => {
    const [{ OTLPTraceExporter }, { resourceFromAttributes }, sdk] = await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-grpc'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-node'),
    ]);
    const provider = new sdk.NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'apiserver' }),
      sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(config.samplingRatePerMillion / 1_000_000) }),
      spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url: collectorUrl(config.endpoint) }))],
    });
    provider.register();
    proxy.setDelegate(provider);
    shutdown = () => provider.shutdown();
  })();
  return { provider: proxy, ready, shutdown: () => ready.then(() => shutdown()) };
}
