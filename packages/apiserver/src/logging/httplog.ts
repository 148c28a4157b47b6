import type { RequestObserver } from '../endpoints/observe.js';
import { requestLabels } from '../metrics/labels.js';
import type { LogSink } from './types.js';

/** kube's httplog verbosity: every request at -v=3. */
export const HTTP_LOG_LEVEL = 3;

/** A latency as Go's time.Duration prints it (`812.345µs`, `2.5ms`, `1.2s`). */
function goDuration(seconds: number): string {
  if (seconds >= 1) return `${+seconds.toFixed(9)}s`;
  if (seconds >= 0.001) return `${+(seconds * 1e3).toFixed(6)}ms`;
  return `${+(seconds * 1e6).toFixed(3)}µs`;
}

/**
 * kube's WithLogging (httplog): one `"HTTP"` line per request at -v=3 once it is complete, with the verb, URI,
 * latency, user agent, audit ID, client address and response code, as kube-apiserver writes it.
 */
export function httpLog(log: LogSink): RequestObserver {
  return {
    finished(observed, { status, seconds }) {
      if (log.enabled && !log.enabled(HTTP_LOG_LEVEL)) return;
      // Read only now: `remote` is worked out when asked, and a dropped line should cost nothing.
      const { request, url, info, auditID, remote } = observed;
      log(HTTP_LOG_LEVEL, 'HTTP', {
        logger: 'httplog',
        verb: requestLabels(request.method, url, info, request.headers.get('content-type')).verb,
        URI: url.pathname + url.search,
        latency: goDuration(seconds),
        userAgent: request.headers.get('user-agent') ?? '',
        'audit-ID': auditID,
        srcIP: remote ?? '',
        resp: status,
      });
    },
  };
}
