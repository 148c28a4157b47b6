import type { Context } from 'hono';
import type { Readable } from 'node:stream';
import { deadlineExceeded, type RequestDeadline } from '../registry/context.js';
import { limitBody, tooLarge, withBody } from './body-limit.js';

/**
 * The request body under the body filters' rules: at most `--max-resource-write-bytes` (413 past it) and no longer
 * than the request's deadline (504). The filters only note the rules in the context; whoever reads the body applies
 * them, so a request whose body nobody reads (a GET, a request refused early) costs nothing for them.
 */

/** The transport's own stream of the request body (Node's IncomingMessage, or HTTP/2's request), when it hands one over (FetchEnv). */
export type NodeBodyStream = Readable;

const LIMIT = 'bodyLimit';
const DEADLINE = 'deadline';

const get = (c: Context, key: string): unknown => (c.get as (key: string) => unknown)(key);

/** Notes the body limit (maxBodySize). */
export function setBodyLimit(c: Context, limit: number): void {
  c.set(LIMIT as never, limit as never);
}

/** Notes the request's deadline (requestTimeout). */
export function setRequestDeadline(c: Context, deadline: RequestDeadline): void {
  c.set(DEADLINE as never, deadline as never);
}

/** The request's deadline, when it has one (long-running requests do not). */
export const requestDeadlineOf = (c: Context): RequestDeadline | undefined => get(c, DEADLINE) as RequestDeadline | undefined;

const limitOf = (c: Context): number => (get(c, LIMIT) as number | undefined) ?? 0;

/**
 * The request body's bytes, read once by the handler. From the transport's Node stream when it has one that nobody
 * has read (no web Request, no web stream built for it), else from the Request's body. Either way the read fails
 * with 413 as soon as more than the limit has arrived (the rest is let go, not buffered) and with the deadline's
 * 504 when the request times out while its body is still coming.
 */
export function readRequestBody(c: Context): Promise<Uint8Array> {
  const limit = limitOf(c);
  const deadline = requestDeadlineOf(c);
  const stream = (c.env as { requestBody?: NodeBodyStream } | undefined)?.requestBody;
  if (stream && !stream.readableDidRead && !stream.readableFlowing && !stream.readableEnded && !stream.destroyed) {
    return readNodeStream(stream, limit, deadline);
  }
  const raw = c.req.raw;
  if (!raw.body) return Promise.resolve(new Uint8Array(0));
  return new Response(limitedBody(c, raw.body, raw.signal).body).arrayBuffer().then((b) => new Uint8Array(b));
}

/**
 * The request as a handler that takes a whole Request sees it (a plugin's router: the aggregator's proxy), its body
 * stream under the same rules as readRequestBody's.
 */
export function limitedRequest(c: Context): Request {
  const raw = c.req.raw;
  if (raw.method === 'GET' || raw.method === 'HEAD' || !raw.body) return raw;
  const { body, signal } = limitedBody(c, raw.body, raw.signal);
  return withBody(raw, body, signal);
}

/** A Request's body stream under the rules, and what ends it: the client going away, or the deadline. */
function limitedBody(c: Context, body: ReadableStream<Uint8Array>, clientGone: AbortSignal) {
  const deadline = requestDeadlineOf(c);
  const signal = deadline ? AbortSignal.any([clientGone, deadline.signal]) : clientGone;
  const limit = limitOf(c);
  return { body: limit > 0 ? limitBody(body, limit, signal) : body, signal };
}

/** Reads a Node stream to its end, counting: 413 past `limit` (when positive), the deadline's error when it passes. */
function readNodeStream(stream: NodeBodyStream, limit: number, deadline: RequestDeadline | undefined): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      clearTimeout(timer);
    };
    // Once done, the stream keeps flowing with no one listening: what is left of the body is read and dropped, and
    // the connection (answered with Connection: close) is not left holding it.
    const fail = (err: unknown) => {
      done();
      reject(err);
    };
    function onData(chunk: Buffer) {
      size += chunk.byteLength;
      if (limit > 0 && size > limit) return fail(tooLarge(limit));
      chunks.push(chunk);
    }
    function onEnd() {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    }
    function onError(err: Error) {
      fail(err);
    }
    function onClose() {
      fail(new Error('the client closed the connection before sending the whole request body'));
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    if (deadline) {
      const left = deadline.at - Date.now();
      if (left <= 0) return fail(deadlineExceeded(deadline));
      timer = setTimeout(() => fail(deadlineExceeded(deadline)), left);
    }
  });
}
