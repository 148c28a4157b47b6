// Scalar values between kube JSON and the Protobuf wire. int64 values are JS numbers (kube's JSON form): on
// encode, an integer number, bigint or decimal string within the field's range; on decode, a number, and an error
// for a value beyond ±(2^53 - 1), which a JS number cannot hold exactly (no silent rounding).
import type { Reader, Writer } from 'protobufjs';

/** A Long from protobufjs (when the `long` package is present) or a plain number. */
export type LongLike = number | { low: number; high: number; unsigned: boolean; toNumber(): number; toString(): string };

export const longToNumber = (v: LongLike): number => (typeof v === 'number' ? v : v.toNumber());
export const longToBigInt = (v: LongLike): bigint => (typeof v === 'number' ? BigInt(v) : BigInt(v.toString()));
/** The low 32 bits as a signed integer: how an int32 field reads a varint. */
export const longToInt32 = (v: LongLike): number => (typeof v === 'number' ? v | 0 : v.low | 0);

/** Thrown for a JSON value that does not fit its field; the codec adds the message name. */
export function shapeError(path: string, expected: string, value: unknown): Error {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return new Error(`${path || '<root>'}: expected ${expected}, got ${got}`);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Inclusive ranges of the integer types; a value outside is rejected instead of wrapping on the wire. */
const RANGES: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

function checkRange(type: string, v: bigint, path: string): void {
  const [min, max] = RANGES[type];
  if (v < min || v > max) throw new Error(`${path || '<root>'}: ${v} is out of range for ${type}`);
}

function int64Arg(type: string, v: unknown, path: string): number | string {
  let big: bigint;
  if (isInt(v)) big = BigInt(v);
  else if (typeof v === 'bigint') big = v;
  else if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) big = BigInt(v);
  else throw shapeError(path, 'an integer', v);
  checkRange(type, big, path);
  return Number.isSafeInteger(v) ? (v as number) : big.toString();
}

// Go's encoding/json reads []byte with base64.StdEncoding: padded standard alphabet, CR and LF ignored.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes from their JSON form (standard, padded base64) or as given. */
export function bytesOf(v: unknown, path: string): Uint8Array {
  if (typeof v === 'string') {
    const text = v.replace(/[\r\n]/g, '');
    if (!BASE64.test(text)) throw new Error(`${path || '<root>'}: illegal base64 data`);
    return Buffer.from(text, 'base64');
  }
  if (v instanceof Uint8Array) return v;
  throw shapeError(path, 'a base64 string', v);
}

export const base64Of = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');

/** Writes one scalar value (without its tag). */
export function writeScalar(w: Writer, type: string, v: unknown, path: string): void {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw shapeError(path, 'a string', v);
      w.string(v);
      return;
    case 'bytes':
      w.bytes(bytesOf(v, path));
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw shapeError(path, 'a boolean', v);
      w.bool(v);
      return;
    case 'double':
    case 'float':
      if (typeof v !== 'number') throw shapeError(path, 'a number', v);
      if (type === 'double') w.double(v);
      else w.float(v);
      return;
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'fixed32':
    case 'sfixed32':
      if (!isInt(v)) throw shapeError(path, 'an integer', v);
      checkRange(type, BigInt(v), path);
      w[type](v);
      return;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      w[type](int64Arg(type, v, path));
      return;
    default:
      throw new Error(`${path}: unsupported Protobuf type ${type}`);
  }
}

/**
 * Why an integer beyond ±(2^53-1) is refused: a JavaScript number (what values are held as) cannot hold every such
 * integer, and one it holds is written back in other digits. Shared by every decoder that meets one.
 */
export const beyondJsonPrecision = (integer: string): string => `integer ${integer} exceeds the precision of JSON numbers (2^53 - 1)`;

/** An int64 read from the wire as a JS number; throws when the number could not hold it exactly. */
export function exactNumber(v: LongLike, name: string): number {
  const n = longToNumber(v);
  // A Long prints its exact value, where the number it became would print a rounded one.
  if (!Number.isSafeInteger(n)) throw new Error(`field ${name}: ${beyondJsonPrecision(v.toString())}`);
  return n;
}

/** Reads one scalar value in its JSON form; `name` names the field in errors. */
export function readScalar(r: Reader, type: string, name = '<value>'): unknown {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return base64Of(r.bytes());
    case 'bool':
    case 'double':
    case 'float':
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'fixed32':
    case 'sfixed32':
      return r[type]();
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return exactNumber(r[type]() as LongLike, name);
    default:
      throw new Error(`unsupported Protobuf type ${type}`);
  }
}

/** The zero value of a scalar in JSON form (what Go reads for a map entry without a value). */
export function zeroScalar(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  if (type === 'bool') return false;
  return 0;
}
