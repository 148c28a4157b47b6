import type { KubeObject } from '@kapi/apimachinery';
import { auditResponseObject } from '../audit/context.js';

/** Lists with more items than this are written as a stream of slices (JSON only). */
export const STREAM_LIST_ITEMS = 1_000;
/** Items encoded per slice, with a turn of the event loop between slices. */
const SLICE_ITEMS = 500;

const PLACEHOLDER = '\u0000kapi-items\u0000';
const text = new TextEncoder();

/**
 * A list's JSON, byte for byte what JSON.stringify gives (and a newline, as kube's encoder ends documents), written
 * as a stream: the list's own fields, then its items SLICE_ITEMS at a time with a turn of the event loop before
 * each slice, so encoding a big list does not hold up other requests. Optionally gzipped (kube compresses large
 * responses). Each item goes through `mapItem` as its slice is written. The items must not change while the
 * stream is read (the cache's objects are frozen).
 */
export function streamJsonList(
  list: KubeObject & { items: unknown[] },
  gzip: boolean,
  mapItem: (item: unknown) => unknown = (item) => item,
): ReadableStream<Uint8Array> {
  auditResponseObject(list); // as read; items are mapped only as they are written
  const shell = JSON.stringify({ ...list, items: [PLACEHOLDER] });
  const at = shell.indexOf(JSON.stringify(PLACEHOLDER));
  const head = shell.slice(0, at);
  const tail = shell.slice(at + JSON.stringify(PLACEHOLDER).length);
  const items = list.items;
  let next = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(text.encode(head));
        return;
      }
      if (next >= items.length) {
        controller.enqueue(text.encode(`${tail}\n`));
        controller.close();
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
      const end = Math.min(next + SLICE_ITEMS, items.length);
      let chunk = next > 0 ? ',' : '';
      for (let i = next; i < end; i++) chunk += (i > next ? ',' : '') + JSON.stringify(mapItem(items[i]));
      next = end;
      controller.enqueue(text.encode(chunk));
    },
  });
  return gzip ? stream.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : stream;
}
