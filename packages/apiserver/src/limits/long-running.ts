import type { Context } from 'hono';
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
  return longRunningOf(url, requestInfoOf(method, url));
}

/** isLongRunning for a request whose info was already parsed. */
export function longRunningOf(url: URL, info: RequestInfo | undefined): boolean {
  if (/^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch(\/|$)/.test(url.pathname)) return true;
  return !!info && (info.verb === 'watch' || LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

/** What the filters and the handler read off a request's method, path and query, parsed once per request. */
export interface RequestFacts {
  url: URL;
  /** The resource request's info; undefined for non-resource paths and paths that do not parse. */
  info: RequestInfo | undefined;
  longRunning: boolean;
}

/**
 * The request's facts (kube's WithRequestInfo: the info is parsed once and kept on the request's context), parsed
 * on first use by whichever filter asks first.
 */
export function requestFacts(c: Context): RequestFacts {
  const kept = (c.get as (key: string) => unknown)('requestFacts') as RequestFacts | undefined;
  if (kept) return kept;
  const url = new URL(c.req.url);
  const info = requestInfoOf(c.req.method, url);
  const facts = { url, info, longRunning: longRunningOf(url, info) };
  c.set('requestFacts' as never, facts as never);
  return facts;
}
