import type { KubeObject } from '@kapi/apimachinery';
import { auditResponseObject } from '../audit/context.js';
import { cborItem, SELF_DESCRIBED } from './media/cbor-codec.js';
import { coalesce, keepsListJson, listItemsChunks } from './media/shared-json.js';
import { toYaml } from './media/yaml.js';

/** Lists with more items than this are written as a stream of slices (JSON only). */
export const STREAM_LIST_ITEMS = 1_000;
/** Items encoded per slice, with a turn of the event loop between slices. */
const SLICE_ITEMS = 500;

const PLACEHOLDER = '\u0000kapi-items\u0000';
const text = new TextEncoder();

/** A list's JSON around its items (its own fields, and kube's closing newline): what goes before and after them. */
function jsonShell(list: KubeObject): { head: string; tail: string } {
  const shell = JSON.stringify({ ...list, items: [PLACEHOLDER] });
  const at = shell.indexOf(JSON.stringify(PLACEHOLDER));
  return { head: shell.slice(0, at), tail: `${shell.slice(at + JSON.stringify(PLACEHOLDER).length)}\n` };
}

/**
 * A list's JSON, byte for byte what JSON.stringify gives (and a newline, as kube's encoder ends documents), its
 * items without their kind and apiVersion when `typed` (kube's typed lists), as chunks to write in order. Watch
 * cache items are written from their kept JSON (listItemsChunks), so a list of objects that did not change costs
 * almost no encoding, and items whose kept JSON lies as the list writes it are not even copied.
 */
export function jsonListChunks(list: KubeObject & { items: unknown[] }, typed: boolean): Buffer[] {
  auditResponseObject(list);
  const { head, tail } = jsonShell(list);
  return coalesce([Buffer.from(head), ...listItemsChunks(list.items, 0, list.items.length, typed, keepsListJson(list.items)), Buffer.from(tail)]);
}

/**
 * jsonListChunks written as a stream: the list's own fields, then its items SLICE_ITEMS at a time with a turn of the
 * event loop before each slice, so writing a big list does not hold up other requests. Optionally gzipped (kube
 * compresses large responses). The items must not change while the stream is read (the cache's objects are frozen).
 */
export function streamJsonList(list: KubeObject & { items: unknown[] }, gzip: boolean, typed: boolean): ReadableStream<Uint8Array> {
  auditResponseObject(list); // as read
  const { head, tail } = jsonShell(list);
  const keep = keepsListJson(list.items);
  return streamInSlices(head, tail, list.items, SLICE_ITEMS, gzip, (from, to) => listItemsChunks(list.items, from, to, typed, keep));
}

/**
 * `head`, then the items encoded `perSlice` at a time with a turn of the event loop before each slice (as one chunk
 * or several), then `tail`: a list written as a stream, so encoding it does not hold up other requests. Optionally
 * gzipped.
 */
function streamInSlices(
  head: string,
  tail: string,
  items: readonly unknown[],
  perSlice: number,
  gzip: boolean,
  encodeSlice: (from: number, to: number) => Uint8Array | readonly Uint8Array[],
): ReadableStream<Uint8Array> {
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
        controller.enqueue(text.encode(tail));
        controller.close();
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
      const end = Math.min(next + perSlice, items.length);
      const slice = encodeSlice(next, end);
      if (slice instanceof Uint8Array) controller.enqueue(slice);
      else for (const chunk of slice) controller.enqueue(chunk);
      next = end;
    },
  });
  return gzip ? stream.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : stream;
}

/** Items encoded per slice of a YAML list: YAML is written about 20× slower than JSON. */
const YAML_SLICE_ITEMS = 50;
/** What the list's own fields say of its items before they are written (top level, so at the line's start). */
const YAML_EMPTY_ITEMS = 'items: []\n';

/**
 * A list's YAML, byte for byte what toYaml gives for the whole list, written as a stream: the list's own fields with
 * `items:` in its place among them, each item written as a one-item sequence (which toYaml indents and folds exactly
 * as it does under `items:`, where yaml.v2 writes sequences at their key's indentation), YAML_SLICE_ITEMS at a time
 * with a turn of the event loop before each slice. Optionally gzipped. Items go through `mapItem` as they are
 * written; they must not change while the stream is read.
 */
export function streamYamlList(
  list: KubeObject & { items: unknown[] },
  gzip: boolean,
  mapItem: (item: unknown) => unknown = (item) => item,
): ReadableStream<Uint8Array> {
  auditResponseObject(list);
  const shell = toYaml({ ...list, items: [] });
  const at = shell.startsWith(YAML_EMPTY_ITEMS) ? 0 : shell.indexOf(`\n${YAML_EMPTY_ITEMS}`) + 1;
  const head = `${shell.slice(0, at)}items:\n`;
  const tail = shell.slice(at + YAML_EMPTY_ITEMS.length);
  return streamInSlices(head, tail, list.items, YAML_SLICE_ITEMS, gzip, (from, to) => {
    let chunk = '';
    for (let i = from; i < to; i++) chunk += toYaml([mapItem(list.items[i])]);
    return text.encode(chunk);
  });
}

/** A varint, as Protobuf writes lengths. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/**
 * A list's Protobuf message (its ListMeta as field 1, then each item as field 2), the same bytes as encoding it in
 * one piece, built SLICE_ITEMS items at a time with a turn of the event loop before each slice. Kube's lists have
 * no other fields. Returns the message, not yet in its envelope.
 */
export async function encodeProtobufListInSlices(
  list: { items: unknown[] } & Record<string, unknown>,
  encode: (message: string, value: unknown) => Uint8Array,
  listMessage: string,
  itemMessage: string,
): Promise<Uint8Array> {
  auditResponseObject(list);
  const items = await encodeInSlices(list.items, (item) => {
    const bytes = encode(itemMessage, item);
    return [Uint8Array.from([0x12, ...varint(bytes.length)]), bytes];
  });
  return concatBytes([encode(listMessage, { ...list, items: [] }), ...items]);
}

/** Each item's bytes, SLICE_ITEMS items at a time with a turn of the event loop before each slice. */
async function encodeInSlices(items: readonly unknown[], encodeItem: (item: unknown) => Uint8Array[]): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for (let next = 0; next < items.length; next += SLICE_ITEMS) {
    await new Promise((resolve) => setImmediate(resolve));
    for (const item of items.slice(next, next + SLICE_ITEMS)) parts.push(...encodeItem(item));
  }
  return parts;
}

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** A CBOR array header (major type 4) for `n` items. */
function cborArrayHeader(n: number): Uint8Array {
  if (n < 24) return Uint8Array.of(0x80 + n);
  if (n < 0x100) return Uint8Array.of(0x98, n);
  if (n < 0x10000) return Uint8Array.of(0x99, n >> 8, n & 0xff);
  return Uint8Array.of(0x9a, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** `items` as a CBOR text string key, then an empty array: where the items go in the list's own fields. */
const CBOR_EMPTY_ITEMS = Uint8Array.of(0x65, 0x69, 0x74, 0x65, 0x6d, 0x73, 0x80);

/**
 * A list's self-described CBOR, the same bytes as encodeCbor gives for the whole list, built SLICE_ITEMS items at a
 * time with a turn of the event loop before each slice: the list's own fields are encoded with no items, and the
 * empty array after their `items` key becomes a header for all of them, followed by each item's encoding (cbor-x
 * writes an item the same inside a list as alone: no records, no shared strings).
 */
export async function encodeCborListInSlices(list: { items: unknown[] } & Record<string, unknown>): Promise<Uint8Array> {
  auditResponseObject(list);
  const shell = cborItem({ ...list, items: [] });
  const at = lastIndexOf(shell, CBOR_EMPTY_ITEMS) + CBOR_EMPTY_ITEMS.length - 1;
  const items = await encodeInSlices(list.items, (item) => [cborItem(item)]);
  return concatBytes([SELF_DESCRIBED, shell.subarray(0, at), cborArrayHeader(list.items.length), ...items, shell.subarray(at + 1)]);
}

function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
  for (let i = haystack.length - needle.length; i >= 0; i--) {
    let j = 0;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  throw new Error('the list has no empty items array');
}
