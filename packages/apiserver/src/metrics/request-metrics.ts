import type { RequestObserver } from '../endpoints/observe.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import type { ApiServerMetrics } from './index.js';
import { requestLabels } from './labels.js';

const HEALTH_PATH = /^\/(healthz|livez|readyz)(\/|$)/;

/**
 * kube's request metrics (MonitorRequest, RecordLongRunning, RecordRequestTermination): `apiserver_request_total`
 * and `apiserver_request_duration_seconds` once a response is complete (a watch when it ends),
 * `apiserver_response_sizes` for GET and LIST, `apiserver_longrunning_requests` while a watch is open, and
 * `apiserver_request_terminations_total` for refusals in self-defense. Resource requests are counted only for what
 * the server serves (`served`), so invented paths cannot grow the label sets.
 */
export function requestMetrics(metrics: ApiServerMetrics, served: (info: RequestInfo) => boolean): RequestObserver {
  const labelsOf = (request: Request, url: URL, info: RequestInfo | undefined, status?: number) =>
    requestLabels(
      request.method,
      url,
      info,
      request.headers.get('content-type'),
      // A health path only names a check that exists: any other answer is not labelled with the client's path.
      HEALTH_PATH.test(url.pathname) && (status === undefined || status === 200 || status === 500),
    );
  const routeOf = ({ dry_run: _, ...route }: ReturnType<typeof labelsOf>) => route;
  const counted = (info: RequestInfo | undefined) => !info || served(info);
  return {
    started({ request, url, info }) {
      if (counted(info)) metrics.longRunning.inc(routeOf(labelsOf(request, url, info)));
    },
    finished({ request, url, info, longRunning }, { status, bytes, seconds, terminated }) {
      if (!counted(info)) return;
      const labels = labelsOf(request, url, info, status);
      if (longRunning) metrics.longRunning.dec(routeOf(labelsOf(request, url, info)));
      const code = String(status);
      const l = labels;
      // The label values in the metrics' label order, joined once: the counter's key is the histogram's plus the code.
      const values = [l.verb, l.dry_run, l.group, l.version, l.resource, l.subresource, l.scope, l.component];
      const key = values.join('\u0000');
      metrics.requestDuration.recordKeyed(key, seconds, values);
      metrics.requestTotal.addKeyed(`${key}\u0000${code}`, [...values, code]);
      if ((l.verb === 'GET' || l.verb === 'LIST') && info && bytes !== undefined) {
        metrics.responseSizes.record(bytes, l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component);
      }
      if (terminated) metrics.requestTerminations.add(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component, code);
    },
  };
}
