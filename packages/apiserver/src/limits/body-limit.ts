import { newRequestEntityTooLarge, type StatusError } from '@kapi/apimachinery';

/** kube-apiserver's default `--max-resource-write-bytes` (MaxRequestBodyBytes): 3 MiB. */
export const DEFAULT_MAX_RESOURCE_WRITE_BYTES = 3 * 1024 * 1024;

export const tooLarge = (limit: number): StatusError => newRequestEntityTooLarge(`limit is ${limit}`);

/**
 * The request body, counted as it is read: the stream errors with 413 RequestEntityTooLarge as soon as more than
 * `limit` bytes arrived (what was read is dropped and the rest is never pulled), and with the signal's reason
 * when `signal` aborts (the request timed out, the client went away), so a handler waiting on a slow body wakes
 * up. Whoever reads the body (`arrayBuffer()`) gets that StatusError as the rejection. The source is let go, not
 * cancelled: cancelling a node request stream destroys the socket before the error response could be written,
 * while the node server drains what is left of an unread body on its own.
 */
export function limitBody(body: ReadableStream<Uint8Array>, limit: number, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  let onAbort: (() => void) | undefined;
  const release = () => {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  const letGo = () => {
    release();
    try {
      reader.releaseLock();
    } catch {
      // a read was pending: it fails now, which is what should happen to it
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        controller.error(signal.reason);
        letGo();
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        release();
        controller.error(err);
        return;
      }
      if (signal?.aborted) return;
      if (chunk.done) {
        release();
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > limit) {
        controller.error(tooLarge(limit));
        letGo();
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/** A copy of `request` whose body is `body` (same URL, method, headers and signal). */
export function withBody(request: Request, body: ReadableStream<Uint8Array> | null, signal = request.signal): Request {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal,
    // Node's fetch needs this for a streamed request body.
    duplex: 'half',
  } as RequestInit);
}
