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

/** The response's length when its headers say it (every non-streamed answer of the server carries Content-Length). */
export function contentLengthOf(res: Response): number | undefined {
  const length = res.headers.get('content-length');
  return length === null ? undefined : Number(length);
}
