import type { Registry } from 'prom-client';
import { collectDefaultMetrics, promClient } from './prom-client.js';
import { defineMetrics, type MetricSet } from './definitions.js';

export type { MetricSet } from './definitions.js';
export { requestLabels, compressUsername, type RequestLabels } from './labels.js';
export { requestMetrics } from './request-metrics.js';
export { instrumentedStorage } from './storage.js';

/** One server's metrics: kube's metric set, plus the process and Node.js runtime metrics shared by the process. */
export interface ApiServerMetrics extends MetricSet {
  readonly registry: Registry;
  /** kube's /metrics/slis: the health checks' results (`kubernetes_healthcheck`, `kubernetes_healthchecks_total`). */
  readonly slis: Registry;
  /** Records one health check's result for /metrics/slis. */
  healthCheck(type: 'livez' | 'readyz' | 'healthz', name: string, healthy: boolean): void;
  /** Runs `collect` before each scrape (gauges read from state: object counts, watermarks). */
  onCollect(collect: () => void | Promise<void>): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
}

let processRegistry: Registry | undefined;

/**
 * prom-client's process_* and nodejs_* metrics (CPU, resident memory, open file descriptors, heap, event loop lag,
 * GC), in one registry for the whole process: they describe the process, whatever number of servers run in it.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new promClient.Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createApiServerMetrics(): ApiServerMetrics {
  const registry = new promClient.Registry();
  const slis = new promClient.Registry();
  const healthcheck = new promClient.Gauge({
    name: 'kubernetes_healthcheck',
    help: 'This metric records the result of a single healthcheck.',
    labelNames: ['name', 'type'],
    registers: [slis],
  });
  const healthchecks = new promClient.Counter({
    name: 'kubernetes_healthchecks_total',
    help: 'This metric records the results of all healthcheck.',
    labelNames: ['name', 'type', 'status'],
    registers: [slis],
  });
  const collectors: (() => void | Promise<void>)[] = [];
  return {
    ...defineMetrics(registry),
    registry,
    slis,
    healthCheck(type, name, healthy) {
      healthcheck.set({ name, type }, healthy ? 1 : 0);
      healthchecks.inc({ name, type, status: healthy ? 'success' : 'error' });
    },
    contentType: registry.contentType,
    onCollect: (collect) => void collectors.push(collect),
    async render() {
      for (const collect of collectors) {
        try {
          await collect();
        } catch {
          // a gauge that cannot be read now keeps its last value
        }
      }
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
  };
}
