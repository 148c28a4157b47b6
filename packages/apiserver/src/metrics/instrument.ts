import type { MiddlewareHandler } from 'hono';
import type { RequestInfo } from '../endpoints/request-info.js';
import { contentLengthOf, onBodyEnd } from '../endpoints/response-end.js';
import { isLongRunning, requestInfoOf } from '../limits/long-running.js';
import type { ApiServerMetrics } from './index.js';
import { isTermination } from './termination.js';
import { requestLabels, type RequestLabels } from './labels.js';

const HEALTH_PATH = /^\/(healthz|livez|readyz)(\/|$)/;

/**
 * kube's request metrics (MonitorRequest, RecordLongRunning): `apiserver_request_total` and
 * `apiserver_request_duration_seconds` for every request once its response is complete (a watch when it ends),
 * `apiserver_response_sizes` for GET and LIST, and `apiserver_longrunning_requests` while a watch is open. Resource
 * requests are counted only for what the server serves (`served`), so invented paths cannot grow the label sets.
 */
export function instrumentRequests(metrics: ApiServerMetrics, served: (info: RequestInfo) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const request = c.req.raw;
    const url = new URL(request.url);
    const info = requestInfoOf(request.method, url);
    const counted = info ? served(info) : true;
    const longRunning = counted && isLongRunning(request.method, url);
    let labels: RequestLabels | undefined;
    const labelsOf = () => (labels ??= requestLabels(request.method, url, info, request.headers.get('content-type'), HEALTH_PATH.test(url.pathname)));
    const routeLabels = () => {
      const { dry_run: _, ...route } = labelsOf();
      return route;
    };
    if (longRunning) metrics.longRunning.inc(routeLabels());
    let res: Response;
    try {
      await next();
      res = c.res;
    } catch (err) {
      if (longRunning) metrics.longRunning.dec(routeLabels());
      throw err;
    }
    const record = (bytes: number | undefined) => {
      if (longRunning) metrics.longRunning.dec(routeLabels());
      // A health path only names a check that exists: any other answer is not labelled with the client's path.
      if (!info && HEALTH_PATH.test(url.pathname) && res.status !== 200 && res.status !== 500) labels = { ...labelsOf(), subresource: '' };
      const all = labelsOf();
      metrics.requestTotal.inc({ ...all, code: String(res.status) });
      metrics.requestDuration.observe(all, (performance.now() - started) / 1000);
      if (isTermination(res)) metrics.requestTerminations.inc({ ...routeLabels(), code: String(res.status) });
      if ((all.verb === 'GET' || all.verb === 'LIST') && bytes !== undefined) metrics.responseSizes.observe(routeLabels(), bytes);
    };
    if (!counted) return;
    // Sizes are of resource reads; a body without a length (a watch, a list sent in slices) is counted as it streams.
    const sized = longRunning || (info !== undefined && (labelsOf().verb === 'GET' || labelsOf().verb === 'LIST'));
    const length = sized ? contentLengthOf(res) : undefined;
    if (sized && length === undefined && res.body) c.res = new Response(onBodyEnd(res.body, record), res);
    else record(length);
  };
}
