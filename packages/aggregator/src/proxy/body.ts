import type { IncomingMessage } from 'node:http';

/**
 * The extension's answer body as a web stream, passed on as it arrives (a watch is never buffered) with the
 * client's pace (the upstream is paused while the client reads slowly). When the extension goes away mid-answer
 * the stream ends, so a watch through the aggregator ends cleanly rather than hanging or failing; when the client
 * goes away the upstream request is dropped.
 */
export function answerBody(res: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const end = () => {
        if (done) return;
        done = true;
        try {
          controller.close();
        } catch {
          // already cancelled by the client
        }
      };
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.once('end', end);
      res.once('error', end);
      res.once('close', end);
    },
    pull() {
      res.resume();
    },
    cancel() {
      done = true;
      res.destroy();
    },
  }, { highWaterMark: 16 });
}
