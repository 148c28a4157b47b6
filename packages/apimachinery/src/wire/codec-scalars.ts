// Scalar values between kube JSON and the Protobuf wire. int64 values are JS numbers (kube's JSON form).
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

function int64Arg(v: unknown, path: string): number | string {
  if (isInt(v)) return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return v;
  throw shapeError(path, 'an integer', v);
}

/** Bytes from their JSON form (base64) or as given. */
export function bytesOf(v: unknown, path: string): Uint8Array {
  if (typeof v === 'string') return Buffer.from(v, 'base64');
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
      w[type](v);
      return;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      w[type](int64Arg(v, path));
      return;
    default:
      throw new Error(`${path}: unsupported Protobuf type ${type}`);
  }
}

/** Reads one scalar value in its JSON form. */
export function readScalar(r: Reader, type: string): unknown {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return base64Of(r.bytes());
    case 'bool':
      return r.bool();
    case 'double':
      return r.double();
    case 'float':
      return r.float();
    case 'int32':
      return r.int32();
    case 'uint32':
      return r.uint32();
    case 'sint32':
      return r.sint32();
    case 'fixed32':
      return r.fixed32();
    case 'sfixed32':
      return r.sfixed32();
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return longToNumber(r[type]() as LongLike);
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
