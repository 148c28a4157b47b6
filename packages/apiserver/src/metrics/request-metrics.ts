import type { ObservedRequest, RequestObserver } from '../endpoints/observe.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import type { HistogramSeries } from './fast-histogram.js';
import type { ApiServerMetrics } from './index.js';
import { KeyTrie } from './key-trie.js';
import { dryRunOf, isApplyPatch, requestLabels, type RequestLabels } from './labels.js';

const HEALTH_PATH = /^\/(healthz|livez|readyz)(\/|$)/;

/** One route's series (its label values but the code), bound once: a request observes them without lookups. */
interface Route {
  labels: RequestLabels;
  duration: HistogramSeries;
  /** apiserver_response_sizes, for GET and LIST of resources. */
  sizes: HistogramSeries | undefined;
  /** apiserver_request_total by status code. */
  total: Map<number, () => void>;
}

/**
 * kube's request metrics (MonitorRequest, RecordLongRunning, RecordRequestTermination): `apiserver_request_total`
 * and `apiserver_request_duration_seconds` once a response is complete (a watch when it ends),
 * `apiserver_response_sizes` for GET and LIST, `apiserver_longrunning_requests` while a watch is open, and
 * `apiserver_request_terminations_total` for refusals in self-defense. Resource requests are counted only for what
 * the server serves (`served`), so invented paths cannot grow the label sets.
 *
 * The series of a resource request's route are bound on its first request and found again by what its labels are
 * computed from, so a request pays a few Map lookups; whether its resource is served is asked on the route's first
 * request, and again once what is served changes. The rarer non-resource requests are labelled each time (a health
 * path's label depends on its answer).
 */
export function requestMetrics(
  metrics: ApiServerMetrics,
  served: (info: RequestInfo) => boolean,
  /** Tells when what is served changes (a CRD added or removed): the bound routes are then checked again. */
  onServedChange?: (listener: () => void) => void,
): RequestObserver {
  const routes = new KeyTrie<string | number, Route>(8);
  onServedChange?.(() => routes.clear());
  const bindRoute = (labels: RequestLabels, resource: boolean): Route => {
    const l = labels;
    const values = [l.verb, l.dry_run, l.group, l.version, l.resource, l.subresource, l.scope, l.component];
    return {
      labels,
      duration: metrics.requestDuration.labels(...values),
      sizes: resource && (l.verb === 'GET' || l.verb === 'LIST') ? metrics.responseSizes.labels(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component) : undefined,
      total: new Map(),
    };
  };
  const labelsOf = ({ request, url, info }: ObservedRequest, status?: number) =>
    requestLabels(
      request.method,
      url,
      info,
      request.headers.get('content-type'),
      // A health path only names a check that exists: any other answer is not labelled with the client's path.
      HEALTH_PATH.test(url.pathname) && (status === undefined || status === 200 || status === 500),
    );
  /** The route of a request, or undefined when it is not counted (a resource the server does not serve). */
  const routeOf = (observed: ObservedRequest, status?: number): Route | undefined => {
    const { request, url, info } = observed;
    if (!info) return bindRoute(labelsOf(observed, status), false);
    // Everything the labels are computed from (labels.ts), each part cleaned to a few values: the method (Node's
    // parser knows a fixed set), the parsed verb, the served resource, the scope's inputs, dry_run, and apply.
    const method = request.method;
    const dryRun = url.search === '' ? '' : dryRunOf(url.searchParams);
    const apply = method === 'PATCH' && isApplyPatch(request.headers.get('content-type'));
    const shape = (info.name === '' ? 0 : 4) + (info.namespace === '' ? 0 : 2) + (apply ? 1 : 0);
    const key = [method, info.verb, info.group, info.version, info.resource, info.subresource, shape, dryRun];
    let route = routes.get(key);
    // Only a served resource's route is kept (the key holds the client's resource name), and only until what is
    // served changes.
    if (!route && served(info)) routes.set(key, (route = bindRoute(labelsOf(observed), true)));
    return route;
  };
  const gaugeLabels = ({ dry_run: _, ...route }: RequestLabels) => route;
  return {
    started(observed) {
      const route = routeOf(observed);
      if (route) metrics.longRunning.inc(gaugeLabels(route.labels));
    },
    finished(observed, { status, bytes, seconds, terminated }) {
      const route = routeOf(observed, status);
      if (!route) return;
      const l = route.labels;
      if (observed.longRunning) metrics.longRunning.dec(gaugeLabels(l));
      route.duration.observe(seconds);
      let count = route.total.get(status);
      if (!count) route.total.set(status, (count = metrics.requestTotal.bind(l.verb, l.dry_run, l.group, l.version, l.resource, l.subresource, l.scope, l.component, String(status))));
      count();
      if (route.sizes && bytes !== undefined) route.sizes.observe(bytes);
      if (terminated) metrics.requestTerminations.add(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component, String(status));
    },
  };
}
