/**
 * `body`, calling `done` once with the bytes sent when it ends, fails or the client cancels it: what the audit log,
 * the metrics and the request log need to know about a streamed response (a watch, a list sent in slices).
 */
export function onBodyEnd(body: ReadableStream<Uint8Array>, done: (bytes: number) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  let called = false;
  const finish = () => {
    if (!called) {
      called = true;
      done(bytes);
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          finish();
          controller.close();
        } else {
          bytes += chunk.value.byteLength;
          controller.enqueue(chunk.value);
        }
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}

const LENGTH = Symbol('kapi.bodyLength');

/** Notes the body length of a response built from bytes (read back by {@link contentLengthOf}). */
export function withLength(res: Response, length: number): Response {
  (res as Response & { [LENGTH]?: number })[LENGTH] = length;
  return res;
}

/**
 * The response's length: noted when it was built, or from its Content-Length header. Noting it spares reading the
 * headers, which makes the node server turn its cheap response into a full one.
 */
export function contentLengthOf(res: Response): number | undefined {
  const noted = (res as Response & { [LENGTH]?: number })[LENGTH];
  if (noted !== undefined) return noted;
  const length = res.headers.get('content-length');
  return length === null ? undefined : Number(length);
}
