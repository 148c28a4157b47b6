import type { KubeObject } from '@kapi/apimachinery';
import { isDeepFrozen } from '../../cacher/cache-event.js';

/** The most JSON kept for shared objects, in bytes. */
const BUDGET = 16 * 1024 * 1024;
/** One object's JSON is kept only when it is smaller than this. */
const MAX_KEPT = BUDGET / 16;

/**
 * An object's kept JSON. Kept for a GET (`prefix` absent): the document, with kube's closing newline. Kept by a
 * typed list: the bytes the list writes for it after another item, `,{` and its JSON after its type meta, with the
 * type meta (`{"kind":...,"apiVersion":...,` as the object's JSON starts) in `prefix`. Such items are written one
 * after the other into a slab, so a list of them (the list that kept them, and later ones in the same order) is
 * written from the slab's bytes as they are, without copying them into a response.
 */
interface Kept {
  readonly bytes: Buffer;
  readonly prefix?: Buffer;
}

/** UTF-8 JSON of shared objects, oldest first. Strong references: bounded by BUDGET. */
const kept = new Map<object, Kept>();
let held = 0;

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');

/**
 * The UTF-8 JSON of a watch cache object (deep-frozen: it never changes) with kube's closing newline, encoded once
 * and reused while it stays among the most recently encoded: a GET or LIST of objects that did not change costs
 * no encoding. The JSON a list kept is put together again around its type meta (a copy, not an encoding).
 */
function sharedJson(value: object): Buffer {
  const found = kept.get(value);
  if (found === undefined) {
    const bytes = Buffer.from(JSON.stringify(value) + '\n');
    keep(value, { bytes });
    return bytes;
  }
  if (found.prefix === undefined) return found.bytes;
  return Buffer.concat([found.prefix, found.bytes.subarray(2), NEWLINE_BYTES]);
}

/** The size of an object's JSON: its kept JSON's, or encoded now (and not kept). */
function jsonSize(value: object): number {
  const found = kept.get(value);
  if (found === undefined) return Buffer.byteLength(JSON.stringify(value)) + 1;
  return found.bytes.length + (found.prefix === undefined ? 0 : found.prefix.length - 1);
}

/**
 * Keeps JSON for `value`, pushing out the oldest kept JSON past the budget. Its bytes may be a view of a slab
 * (keepAll): the slab lives until all its views are pushed out, so the memory kept can pass the budget by what
 * such slabs hold beyond their kept views.
 */
function keep(value: object, entry: Kept): void {
  if (entry.bytes.length >= MAX_KEPT) return;
  kept.set(value, entry);
  held += entry.bytes.length;
  if (held <= BUDGET) return;
  for (const [old, oldEntry] of kept) {
    kept.delete(old);
    held -= oldEntry.bytes.length;
    if (held <= BUDGET) break;
  }
}

/** Size of the slabs that the JSON kept by lists is written into. */
const SLAB = 1024 * 1024;
let slab = Buffer.alloc(0);
let slabUsed = 0;

/** Room for `length` more bytes in the slab: a new slab when the current one has too little left. */
function slabRoom(length: number): void {
  if (slab.length - slabUsed >= length) return;
  slab = Buffer.alloc(Math.max(SLAB, length)); // zeroed: nothing of old memory in it
  slabUsed = 0;
}

/**
 * Encodes and keeps the JSON of cache objects not kept yet, as a list does before writing its items from what is
 * kept, into the shared slab (no allocation per object), in the list's order. For a typed list, an object whose
 * JSON starts with its type meta is kept as the list writes it (see Kept), so that these items lie in the slab as
 * the list's bytes; others are kept as documents.
 */
function keepAll(values: readonly object[], typed: boolean): void {
  for (const value of values) {
    const text = JSON.stringify(value);
    const prefix = typed ? typeMetaPrefixOf(value as KubeObject, text) : undefined;
    if (prefix === undefined) {
      const length = Buffer.byteLength(text) + 1; // and kube's closing newline
      if (length >= MAX_KEPT) continue;
      slabRoom(length);
      slab.write(text, slabUsed);
      slab[slabUsed + length - 1] = NEWLINE;
      keep(value, { bytes: slab.subarray(slabUsed, slabUsed + length) });
      slabUsed += length;
      continue;
    }
    const rest = text.slice(prefix.text.length);
    const length = Buffer.byteLength(rest) + 2;
    if (length >= MAX_KEPT) continue;
    slabRoom(length);
    slab[slabUsed] = COMMA[0]!;
    slab[slabUsed + 1] = OPEN[0]!;
    slab.write(rest, slabUsed + 2);
    keep(value, { bytes: slab.subarray(slabUsed, slabUsed + length), prefix: prefix.bytes });
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

/** Pieces at least this long are written as they are; shorter ones are copied together with their neighbours. */
const MIN_PIECE = 16 * 1024;

/**
 * Byte ranges of buffers and runs of text, written as chunks: a range of the memory right after the range before
 * it (the next item's bytes in a slab) extends that one; long ranges become chunks of their own, views without a
 * copy, and the short ones between them are copied into one buffer.
 */
class ByteRanges {
  /** Each range as memory: the ArrayBuffer, the offset in it and the length. */
  private readonly memory: ArrayBufferLike[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private text = '';

  /** Text, encoded with the text next to it (one encoding for a run of items that are not kept). */
  addText(text: string): void {
    this.text += text;
  }

  add(source: Buffer, start = 0, end = source.length): void {
    this.flushText();
    if (end <= start) return;
    const offset = source.byteOffset + start;
    const last = this.memory.length - 1;
    if (last >= 0 && this.memory[last] === source.buffer && this.offsets[last]! + this.lengths[last]! === offset) {
      this.lengths[last] = this.lengths[last]! + (end - start);
      return;
    }
    this.memory.push(source.buffer);
    this.offsets.push(offset);
    this.lengths.push(end - start);
  }

  private flushText(): void {
    if (this.text === '') return;
    const bytes = Buffer.from(this.text);
    this.text = '';
    this.add(bytes);
  }

  /** The ranges as chunks to write in order. */
  chunks(): Buffer[] {
    this.flushText();
    return coalesce(this.memory.map((memory, i) => Buffer.from(memory, this.offsets[i]!, this.lengths[i]!)));
  }
}

/**
 * Chunks to write in order: each part at least MIN_PIECE long as it is (no copy), the shorter ones between them
 * copied together into one.
 */
export function coalesce(parts: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flushRun = () => {
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1) out.push(Buffer.concat(run));
    run = [];
  };
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length < MIN_PIECE) {
      run.push(part);
      continue;
    }
    flushRun();
    out.push(part);
  }
  flushRun();
  return out;
}

/**
 * Whether the JSON of a list's items should be kept (sharedJson) as it is written: not when the list alone would
 * take more than half of what is kept (estimated from its first item), as keeping it would only push out what was
 * kept before it, and be pushed out before the next such list.
 */
export function keepsListJson(items: readonly unknown[]): boolean {
  const first = items[0];
  if (!isDeepFrozen(first)) return false;
  return jsonSize(first as object) * items.length <= BUDGET / 2;
}

/**
 * Items `from` to `to` of a list as their JSON is written among the list's items: each after a comma but the list's
 * first, without the closing newline, as chunks to write in order (views of kept JSON where it lies as the list
 * writes it). A typed list's items (`typed`: kube's typed lists carry the kind once, on the list) go without their
 * kind and apiVersion: for a watch cache object whose JSON starts with them, that is its kept JSON after them.
 * `keepNew`: whether to keep the JSON of cache objects not kept yet (keepsListJson); without it, those are encoded
 * as text, as anything else is.
 */
export function listItemsChunks(items: readonly unknown[], from: number, to: number, typed: boolean, keepNew: boolean): Buffer[] {
  if (keepNew) keepAll(items.slice(from, to).filter((item) => isDeepFrozen(item) && !kept.has(item as object)) as object[], typed);
  const out = new ByteRanges();
  for (let i = from; i < to; i++) {
    const item = items[i] as KubeObject;
    const found = kept.get(item);
    if (found?.prefix !== undefined) {
      // Kept as `,{` and what follows its type meta.
      if (typed) out.add(found.bytes, i > 0 ? 0 : 1);
      else {
        if (i > 0) out.add(COMMA);
        out.add(found.prefix);
        out.add(found.bytes, 2);
      }
      continue;
    }
    const bytes = found?.bytes;
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
  return out.chunks();
}

/**
 * Where a list item's JSON starts in its object's kept JSON, after the opening brace: 0 for the whole object; past
 * its apiVersion and kind for a typed list when the JSON starts with those two fields (in either order) and has
 * more; -1 when a typed list's item must be encoded without them.
 */
function itemStart(item: KubeObject, bytes: Buffer, typed: boolean): number {
  if (!typed) return 0;
  if (typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') return -1;
  for (const { bytes: prefix } of typeMetaPrefixes(item.apiVersion, item.kind)) {
    if (bytes.length > prefix.length + 2 && bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0) return prefix.length;
  }
  return -1;
}

/** A way an object's JSON can start with its apiVersion and kind, as text and as bytes. */
interface TypeMetaPrefix {
  readonly text: string;
  readonly bytes: Buffer;
}

/** The two ways an object's JSON can start with its apiVersion and kind, by apiVersion and kind (a few kinds). */
const prefixes = new Map<string, readonly TypeMetaPrefix[]>();

function typeMetaPrefixes(apiVersion: string, kind: string): readonly TypeMetaPrefix[] {
  const key = `${apiVersion} ${kind}`;
  let found = prefixes.get(key);
  if (found === undefined) {
    if (prefixes.size >= 1_000) prefixes.clear();
    const a = `"apiVersion":${JSON.stringify(apiVersion)}`;
    const k = `"kind":${JSON.stringify(kind)}`;
    found = [`{${a},${k},`, `{${k},${a},`].map((text) => ({ text, bytes: Buffer.from(text) }));
    prefixes.set(key, found);
  }
  return found;
}

/** The type meta an object's JSON `text` starts with (and has more after). */
function typeMetaPrefixOf(item: KubeObject, text: string): TypeMetaPrefix | undefined {
  if (typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') return undefined;
  return typeMetaPrefixes(item.apiVersion, item.kind).find((prefix) => text.length > prefix.text.length + 1 && text.startsWith(prefix.text));
}

/** An item of a typed list, without its kind and apiVersion. */
export function withoutTypeMeta(item: KubeObject): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = item;
  return rest as KubeObject;
}
