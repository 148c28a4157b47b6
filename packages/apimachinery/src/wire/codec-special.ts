// The apimachinery types whose JSON form differs from their Protobuf message, encoded as Go encodes them:
// - Time: RFC 3339 seconds ↔ {seconds, nanos}; Go writes both (nanos always 0), and the zero time (JSON null) as
//   an empty message.
// - MicroTime: six fractional digits ↔ {seconds, nanos}, nanos truncated to microseconds both ways (as Go's
//   ProtoMicroTime and Unmarshal do); zero time as an empty message.
// - Duration: Go duration string ↔ {duration: nanoseconds}, always written.
// - FieldsV1 and RawExtension: any JSON ↔ {Raw/raw: its compact JSON bytes}; null as an empty message.
// - JSON (apiextensions.k8s.io/v1, a CustomResourceDefinition schema's `default`, `example` and `enum` values): any
//   JSON ↔ {raw: its compact JSON bytes}; null (an `enum` entry) as an empty message, and an empty message or empty
//   bytes read as null, as Go's JSON.MarshalJSON writes an empty Raw. Its fields are Go pointers (`*JSON`), which
//   JSON null leaves nil: a null field is not written.
// - Quantity: string ↔ {string}, always written.
// - IntOrString: number | string ↔ {type, intVal, strVal}; Go writes all three.
import type { Reader, Writer } from 'protobufjs';
import { formatDuration, formatMicroTime, formatTime, microTime, parseDuration, parseRFC3339, ZERO_TIME_SECONDS } from './go-time.js';
import type { SpecialType } from './codec-plan.js';
import { type LongLike, exactNumber, longToBigInt, longToInt32, longToNumber, shapeError } from './codec-scalars.js';
import { readTag } from './codec-tag.js';

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** Special types whose JSON null is Go's zero value, written as an empty message. */
export const NULLABLE_SPECIALS: ReadonlySet<SpecialType> = new Set(['Time', 'MicroTime', 'FieldsV1', 'RawExtension']);

function timestamp(v: unknown, path: string): { seconds: number; nanos: number } | undefined {
  if (v === null) return undefined;
  let ts: { seconds: number; nanos: number };
  if (typeof v === 'string') {
    try {
      ts = parseRFC3339(v);
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`);
    }
  } else if (v instanceof Date) {
    const ms = v.getTime();
    ts = { seconds: Math.floor(ms / 1000), nanos: (ms - Math.floor(ms / 1000) * 1000) * 1e6 };
  } else {
    throw shapeError(path, 'an RFC 3339 timestamp string', v);
  }
  return ts.seconds === ZERO_TIME_SECONDS && ts.nanos === 0 ? undefined : ts;
}

const jsonBytes = (v: unknown): Uint8Array => textEncoder.encode(JSON.stringify(v));

/** Writes the body of a special message (the caller has forked the writer). */
export function writeSpecial(w: Writer, special: SpecialType, v: unknown, path: string): void {
  switch (special) {
    case 'Time': {
      const ts = timestamp(v, path);
      if (ts) w.uint32(0x08).int64(ts.seconds).uint32(0x10).int32(0);
      return;
    }
    case 'MicroTime': {
      const ts = timestamp(v, path);
      if (ts) w.uint32(0x08).int64(ts.seconds).uint32(0x10).int32(ts.nanos - (ts.nanos % 1000));
      return;
    }
    case 'Duration': {
      if (typeof v !== 'string') throw shapeError(path, 'a duration string', v);
      let nanos: bigint;
      try {
        nanos = parseDuration(v);
      } catch (err) {
        throw new Error(`${path}: ${(err as Error).message}`);
      }
      w.uint32(0x08).int64(nanos.toString());
      return;
    }
    case 'FieldsV1':
    case 'RawExtension':
      if (v === null || v === undefined) return;
      w.uint32(0x0a).bytes(v instanceof Uint8Array ? v : jsonBytes(v));
      return;
    case 'JSON':
      if (v === null || v === undefined) return;
      w.uint32(0x0a).bytes(jsonBytes(v));
      return;
    case 'Quantity':
      if (typeof v !== 'string' && typeof v !== 'number') throw shapeError(path, 'a quantity string', v);
      w.uint32(0x0a).string(String(v));
      return;
    case 'IntOrString':
      if (typeof v === 'number' && Number.isInteger(v) && (v > 2 ** 31 - 1 || v < -(2 ** 31))) {
        throw new Error(`${path || '<root>'}: ${v} is out of range for int32`);
      }
      if (typeof v === 'number' && Number.isInteger(v)) w.uint32(0x08).int64(0).uint32(0x10).int32(v).uint32(0x1a).string('');
      else if (typeof v === 'string') w.uint32(0x08).int64(1).uint32(0x10).int32(0).uint32(0x1a).string(v);
      else throw shapeError(path, 'an integer or a string', v);
      return;
  }
}

// The wire type of each field of the special messages; any other field is skipped, as Go skips unknown fields.
const WIRE_TYPES: Record<SpecialType, Record<number, number>> = {
  Time: { 1: 0, 2: 0 },
  MicroTime: { 1: 0, 2: 0 },
  Duration: { 1: 0 },
  FieldsV1: { 1: 2 },
  RawExtension: { 1: 2 },
  JSON: { 1: 2 },
  Quantity: { 1: 2 },
  IntOrString: { 1: 0, 2: 0, 3: 2 },
};

// The fields of a small message: varints as Longs, length-delimited values as bytes.
function readFields(r: Reader, special: SpecialType, end: number): Map<number, LongLike | Uint8Array> {
  const fields = new Map<number, LongLike | Uint8Array>();
  while (r.pos < end) {
    const tag = readTag(r);
    const wireType = tag & 7;
    const expected = WIRE_TYPES[special][tag >>> 3];
    if (expected === undefined) r.skipType(wireType);
    else if (wireType !== expected) throw new Error(`wrong wire type ${wireType} for field ${tag >>> 3} of ${special}`);
    else if (wireType === 0) fields.set(tag >>> 3, r.int64() as LongLike);
    else fields.set(tag >>> 3, r.bytes());
  }
  return fields;
}

const varint = (f: LongLike | Uint8Array | undefined): LongLike => (f === undefined || f instanceof Uint8Array ? 0 : f);
const bytes = (f: LongLike | Uint8Array | undefined): Uint8Array | undefined => (f instanceof Uint8Array ? f : undefined);

/** Reads the body of a special message (from the reader's position to `end`) into its JSON form. */
export function readSpecial(r: Reader, special: SpecialType, end: number): unknown {
  const empty = r.pos === end;
  const fields = readFields(r, special, end);
  switch (special) {
    case 'Time': {
      if (empty) return null;
      // Go reads whole seconds only; its nanos are always 0. Go's zero time (also an empty message) is JSON null.
      const seconds = exactNumber(varint(fields.get(1)), 'seconds');
      return seconds === ZERO_TIME_SECONDS ? null : formatTime(seconds);
    }
    case 'MicroTime': {
      if (empty) return null;
      const t = microTime(exactNumber(varint(fields.get(1)), 'seconds'), longToInt32(varint(fields.get(2))));
      return t.seconds === ZERO_TIME_SECONDS && t.nanos === 0 ? null : formatMicroTime(t.seconds, t.nanos);
    }
    case 'Duration':
      return formatDuration(longToBigInt(varint(fields.get(1))));
    case 'FieldsV1': {
      const raw = bytes(fields.get(1));
      return raw === undefined ? null : JSON.parse(textDecoder.decode(raw));
    }
    case 'RawExtension': {
      const raw = bytes(fields.get(1));
      if (raw === undefined) return null;
      try {
        return JSON.parse(textDecoder.decode(raw));
      } catch {
        // Not JSON (an embedded Protobuf object, for instance): hand the bytes to the caller.
        return Uint8Array.from(raw);
      }
    }
    case 'JSON': {
      const raw = bytes(fields.get(1));
      if (raw === undefined || raw.length === 0) return null;
      try {
        return JSON.parse(textDecoder.decode(raw));
      } catch {
        throw new Error('raw of JSON is not a JSON value');
      }
    }
    case 'Quantity': {
      const s = bytes(fields.get(1));
      return s === undefined || s.length === 0 ? '0' : textDecoder.decode(s);
    }
    case 'IntOrString': {
      if (longToNumber(varint(fields.get(1))) === 1) {
        const s = bytes(fields.get(3));
        return s === undefined ? '' : textDecoder.decode(s);
      }
      return longToInt32(varint(fields.get(2)));
    }
  }
}

/** The JSON form of a special type's zero value (what Go reads for a map entry without a value). */
export function specialZero(special: SpecialType): unknown {
  switch (special) {
    case 'Duration':
      return '0s';
    case 'Quantity':
      return '0';
    case 'IntOrString':
      return 0;
    default:
      return null;
  }
}
