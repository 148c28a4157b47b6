import type { Context } from 'hono';

/** The transport's hook for headers every answer carries (FetchEnv.setResponseHeader), when it has one. */
type Transport = { setResponseHeader?(name: string, value: string): void } | undefined;

/**
 * Adds headers to whatever answer the request gets, from a filter that runs before the answer exists (`Audit-Id`,
 * API Priority and Fairness's `X-Kubernetes-PF-*`). A transport that writes the response itself takes them at once,
 * which spares rebuilding the Response; otherwise they are set on the answer once `next` has made it.
 */
export function withAnswerHeaders(c: Context, headers: Record<string, string>, next: () => Promise<void>): Promise<void> {
  const transport = c.env as Transport;
  if (transport?.setResponseHeader) {
    for (const name in headers) transport.setResponseHeader(name, headers[name]);
    return next();
  }
  return next().then(() => {
    try {
      for (const name in headers) c.res.headers.set(name, headers[name]);
    } catch {
      // immutable headers (a fetched response)
    }
  });
}
