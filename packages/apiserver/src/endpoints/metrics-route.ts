import { Hono } from 'hono';
import type { ApiServerMetrics } from '../metrics/index.js';

/**
 * GET /metrics: the Prometheus text exposition of the server's metrics (kube's legacyregistry handler), and
 * /metrics/slis: the health checks' results (kube's SLI metrics). Like every
 * path it is authorized first: kube's `system:monitoring` ClusterRole grants the nonResourceURL.
 */
export function createMetricsRoute(metrics: ApiServerMetrics): Hono {
  const app = new Hono();
  app.get('/metrics', async () => new Response(await metrics.render(), { status: 200, headers: { 'Content-Type': metrics.contentType } }));
  app.get('/metrics/slis', async () => new Response(await metrics.slis.metrics(), { status: 200, headers: { 'Content-Type': metrics.slis.contentType } }));
  return app;
}
