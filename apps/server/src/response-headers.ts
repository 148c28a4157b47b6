import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';

const PENDING = Symbol('kapi.pendingHeaders');

/**
 * The Node response the listeners create (http.createServer's `ServerResponse` option): headers the ApiServer adds
 * to every answer (`Audit-Id`) are held until the head is written, then added to the headers `writeHead` is given.
 * Node's `setHeader` before `writeHead` would switch `writeHead` to its slow path, which sets and validates every
 * header of the response one by one: several microseconds on a request that costs tens.
 */
export class HeaderedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  private [PENDING]?: Record<string, string>;

  /** Adds `name: value` to the head when it is written (at once when it already was: then it is too late). */
  addHeader(name: string, value: string): void {
    if (this.headersSent) return;
    (this[PENDING] ??= {})[name] = value;
  }

  // Fixed arity (Node's writeHead takes headers in place of the reason too): no rest arrays on every response.
  override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
    const extra = this[PENDING];
    if (extra !== undefined) {
      this[PENDING] = undefined;
      const at = typeof reason === 'string' ? headers : reason;
      if (at == null || (typeof at === 'object' && !Array.isArray(at))) {
        const merged = { ...extra, ...(at as OutgoingHttpHeaders | undefined) };
        if (typeof reason === 'string') headers = merged;
        else reason = merged;
      } else {
        // Headers as a raw array: Node merges what setHeader set.
        for (const name in extra) this.setHeader(name, extra[name]);
      }
    }
    return (ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => this).call(this, statusCode, reason, headers) as this;
  }
}

/** Adds a header to an answer not yet written: held for `writeHead` on a {@link HeaderedResponse}, else `setHeader`. */
export function addResponseHeader(outgoing: unknown, name: string, value: string): void {
  if (outgoing instanceof HeaderedResponse) outgoing.addHeader(name, value);
  else (outgoing as ServerResponse | undefined)?.setHeader(name, value);
}
