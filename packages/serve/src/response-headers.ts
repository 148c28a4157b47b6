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

  /** Adds `name: value` to the head when it is written; nothing once the head is sent. */
  addHeader(name: string, value: string): void {
    if (this.headersSent) return;
    (this[PENDING] ??= {})[name] = value;
  }

  // Fixed arity (Node's writeHead takes the headers in place of the reason too): no rest arrays on every response.
  override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
    const extra = this[PENDING];
    const write = ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => this;
    if (extra === undefined) return write.call(this, statusCode, reason, headers);
    this[PENDING] = undefined;
    const named = typeof reason === 'string';
    const given = named ? headers : reason;
    if (given == null) return write.call(this, statusCode, named ? reason : extra, named ? extra : undefined);
    if (Array.isArray(given) || typeof given !== 'object') {
      // Headers as a raw array: Node merges what setHeader set.
      for (const name in extra) this.setHeader(name, extra[name]);
      return write.call(this, statusCode, reason, headers);
    }
    // The extra headers are added to the object given for as long as Node writes it, then taken off again: it is the
    // Response's, which may be shared. Adding then deleting the newest properties keeps V8's fast object shapes,
    // where a copy (or a merge) costs microseconds per response in Node's header writing.
    const target = given as OutgoingHttpHeaders;
    const added: string[] = [];
    for (const name in extra) {
      if (Object.hasOwn(target, name)) continue;
      target[name] = extra[name];
      added.push(name);
    }
    try {
      return write.call(this, statusCode, reason, headers);
    } finally {
      for (let i = added.length - 1; i >= 0; i--) delete target[added[i]];
    }
  }
}

/** Adds a header to an answer not yet written: held for `writeHead` on a {@link HeaderedResponse}, else `setHeader`. */
export function addResponseHeader(outgoing: unknown, name: string, value: string): void {
  if (outgoing instanceof HeaderedResponse) outgoing.addHeader(name, value);
  else (outgoing as ServerResponse | undefined)?.setHeader(name, value);
}
