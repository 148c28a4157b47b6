import type { IncomingMessage } from 'node:http';

/**
 * The extension's answer body as a web stream, passed on as it arrives (a watch is never buffered) with the
 * client's pace (the upstream is paused while the client reads slowly); when the client goes away the upstream
 * request is dropped.
 *
 * When the extension goes away mid-answer, a watch (`endsCleanly`) ends as a watch ends, so the client re-watches;
 * any other answer fails, so the client sees it was cut short rather than a shorter list (Go's proxy aborts the
 * connection). `deadline` aborts an answer that takes too long (the server's request timeout), the same way.
 */
export function answerBody(res: IncomingMessage, options: { endsCleanly: boolean; deadline?: AbortSignal }): ReadableStream<Uint8Array> {
  let done = false;
  let onDeadline: (() => void) | undefined;
  const finish = () => {
    done = true;
    if (onDeadline) options.deadline?.removeEventListener('abort', onDeadline);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (done) return;
        finish();
        try {
          controller.close();
        } catch {
          // already cancelled by the client
        }
      };
      const cut = (why: string) => {
        if (done) return;
        if (options.endsCleanly) return close();
        finish();
        res.destroy();
        controller.error(new Error(why));
      };
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.once('end', close);
      res.once('error', () => cut('the extension server closed the answer before its end'));
      res.once('close', () => (res.complete ? close() : cut('the extension server closed the answer before its end')));
      if (options.deadline) {
        onDeadline = () => cut('the answer took longer than the request timeout');
        if (options.deadline.aborted) onDeadline();
        else options.deadline.addEventListener('abort', onDeadline, { once: true });
      }
    },
    pull() {
      res.resume();
    },
    cancel() {
      finish();
      res.destroy();
    },
  }, { highWaterMark: 16 });
}
