import { parseRequestInfo, type RequestInfo } from '../endpoints/request-info.js';

/** Subresources that stream for as long as the client stays (kube's default long-running subresources). */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** The request's resource info, or undefined for non-resource paths and paths that do not parse. */
export function requestInfoOf(method: string, url: URL): RequestInfo | undefined {
  try {
    return parseRequestInfo(method, url.pathname, url.searchParams);
  } catch {
    return undefined;
  }
}

/**
 * kube's BasicLongRunningRequestCheck: watches (`?watch=true`, the legacy `/watch/` paths) and streaming
 * subresources. They are neither counted against the in-flight limits nor cut by the request timeout.
 */
export function isLongRunning(method: string, url: URL): boolean {
  if (/^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch(\/|$)/.test(url.pathname)) return true;
  const info = requestInfoOf(method, url);
  return !!info && (info.verb === 'watch' || LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}
