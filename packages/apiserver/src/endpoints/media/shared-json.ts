import type { KubeObject } from '@kapi/apimachinery';
import { isDeepFrozen } from '../../cacher/cache-event.js';

/** The most JSON kept for shared objects, in bytes. */
const BUDGET = 16 * 1024 * 1024;
/** One object's JSON is kept only when it is smaller than this. */
const MAX_KEPT = BUDGET / 16;

/** UTF-8 JSON of shared objects (with kube's closing newline), oldest first. Strong references: bounded by BUDGET. */
const kept = new Map<object, Buffer>();
let held = 0;

/**
 * The UTF-8 JSON of a watch cache object (deep-frozen: it never changes) with kube's closing newline, encoded once
 * and reused while it stays among the most recently encoded: a GET or LIST of objects that did not change costs
 * no encoding.
 */
function sharedJson(value: object): Buffer {
  let bytes = kept.get(value);
  if (bytes === undefined) keep(value, (bytes = Buffer.from(JSON.stringify(value) + '\n')));
  return bytes;
}

/**
 * Keeps `bytes` as the JSON of `value`, pushing out the oldest kept JSON past the budget. `bytes` may be a view of a
 * larger buffer (keepAll): that buffer lives until all its views are pushed out, so the memory kept can pass the
 * budget by what such buffers hold beyond their kept views.
 */
function keep(value: object, bytes: Buffer): void {
  if (bytes.length >= MAX_KEPT) return;
  kept.set(value, bytes);
  held += bytes.length;
  if (held <= BUDGET) return;
  for (const [old, oldBytes] of kept) {
    kept.delete(old);
    held -= oldBytes.length;
    if (held <= BUDGET) break;
  }
}

/** Size of the buffers that the JSON kept by lists is written into. */
const SLAB = 1024 * 1024;
const NEWLINE = 0x0a;
let slab = Buffer.alloc(0);
let slabUsed = 0;

/**
 * Encodes and keeps the JSON of cache objects not kept yet, as a list does before writing its items from what is
 * kept: each object's JSON is written into a shared 1 MiB buffer and kept as its view of it (no allocation per
 * object). A buffer lives until all its views are pushed out.
 */
function keepAll(values: readonly object[]): void {
  for (const value of values) {
    const text = JSON.stringify(value);
    const length = Buffer.byteLength(text) + 1; // and kube's closing newline
    if (length >= MAX_KEPT) continue;
    if (slab.length - slabUsed < length) {
      slab = Buffer.alloc(Math.max(SLAB, length)); // zeroed: nothing of old memory in it
      slabUsed = 0;
    }
    slab.write(text, slabUsed);
    slab[slabUsed + length - 1] = NEWLINE;
    keep(value, slab.subarray(slabUsed, slabUsed + length));
    slabUsed += length;
  }
}

/**
 * The compact JSON of `value` with kube's closing newline: a watch cache object's kept UTF-8 bytes (sharedJson),
 * anything else (which may change) encoded now, as text.
 */
export function jsonBody(value: unknown): string | Uint8Array {
  return isDeepFrozen(value) ? sharedJson(value as object) : JSON.stringify(value) + '\n';
}

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const COMMA_OPEN = Buffer.from(',{');

/** Byte ranges of buffers and runs of text, to be copied into one buffer in a row. */
class ByteRanges {
  private readonly sources: Buffer[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private length = 0;
  private text = '';

  /** Text, encoded with the text next to it (one encoding for a run of items that are not kept). */
  addText(text: string): void {
    this.text += text;
  }

  add(source: Buffer, start = 0, end = source.length): void {
    this.flushText();
    this.sources.push(source);
    this.starts.push(start);
    this.ends.push(end);
    this.length += end - start;
  }

  private flushText(): void {
    if (this.text === '') return;
    const bytes = Buffer.from(this.text);
    this.text = '';
    this.add(bytes);
  }

  concat(): Buffer {
    this.flushText();
    if (this.sources.length === 1 && this.starts[0] === 0 && this.ends[0] === this.sources[0]!.length) return this.sources[0]!;
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (let i = 0; i < this.sources.length; i++) at += this.sources[i]!.copy(out, at, this.starts[i], this.ends[i]);
    return out;
  }
}

/**
 * Whether the JSON of a list's items should be kept (sharedJson) as it is written: not when the list alone would
 * take more than half of what is kept (estimated from its first item), as keeping it would only push out what was
 * kept before it, and be pushed out before the next such list.
 */
export function keepsListJson(items: readonly unknown[]): boolean {
  const first = items[0];
  if (!isDeepFrozen(first)) return false;
  return sharedJson(first as object).length * items.length <= BUDGET / 2;
}

/**
 * Items `from` to `to` of a list as their JSON is written among the list's items: each after a comma but the list's
 * first, without the closing newline. A typed list's items (`typed`: kube's typed lists carry the kind once, on the
 * list) go without their kind and apiVersion: for a watch cache object whose JSON starts with them, that is its kept
 * JSON after them. `keepNew`: whether to keep the JSON of cache objects not kept yet (keepsListJson); without it,
 * those are encoded as text, as anything else is.
 */
export function listItemsJson(items: readonly unknown[], from: number, to: number, typed: boolean, keepNew: boolean): Buffer {
  if (keepNew) keepAll(items.slice(from, to).filter((item) => isDeepFrozen(item) && !kept.has(item as object)) as object[]);
  const out = new ByteRanges();
  for (let i = from; i < to; i++) {
    const item = items[i] as KubeObject;
    const bytes = kept.get(item);
    const start = bytes === undefined ? -1 : itemStart(item, bytes, typed);
    if (start === 0) {
      if (i > 0) out.add(COMMA);
      out.add(bytes!, 0, bytes!.length - 1);
    } else if (start > 0) {
      out.add(i > 0 ? COMMA_OPEN : OPEN);
      out.add(bytes!, start, bytes!.length - 1);
    } else {
      out.addText((i > 0 ? ',' : '') + JSON.stringify(typed ? withoutTypeMeta(item) : item));
    }
  }
  return out.concat();
}

/**
 * Where a list item's JSON starts in its object's kept JSON, after the opening brace: 0 for the whole object; past
 * its apiVersion and kind for a typed list when the JSON starts with those two fields (in either order) and has
 * more; -1 when a typed list's item must be encoded without them.
 */
function itemStart(item: KubeObject, bytes: Buffer, typed: boolean): number {
  if (!typed) return 0;
  if (typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') return -1;
  for (const prefix of typeMetaPrefixes(item.apiVersion, item.kind)) {
    if (bytes.length > prefix.length + 2 && bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0) return prefix.length;
  }
  return -1;
}

/** The two ways an object's JSON can start with its apiVersion and kind, by apiVersion and kind (a few kinds). */
const prefixes = new Map<string, Buffer[]>();

function typeMetaPrefixes(apiVersion: string, kind: string): Buffer[] {
  const key = `${apiVersion} ${kind}`;
  let found = prefixes.get(key);
  if (found === undefined) {
    if (prefixes.size >= 1_000) prefixes.clear();
    const a = `"apiVersion":${JSON.stringify(apiVersion)}`;
    const k = `"kind":${JSON.stringify(kind)}`;
    found = [Buffer.from(`{${a},${k},`), Buffer.from(`{${k},${a},`)];
    prefixes.set(key, found);
  }
  return found;
}

/** An item of a typed list, without its kind and apiVersion. */
export function withoutTypeMeta(item: KubeObject): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = item;
  return rest as KubeObject;
}
