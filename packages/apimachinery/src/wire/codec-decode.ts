// Protobuf bytes → kube JSON, walking the message plans. Fields come out in declaration order (kube's JSON order);
// inline (embedded) messages are spread into their parent; unknown fields are skipped; packed and unpacked repeated
// scalars are both read; Go's non-pointer omitempty scalars (`kapi_omit_zero`) are left out when zero.
import type { Reader } from 'protobufjs';
import type { FieldPlan, MessagePlan, ValueKind } from './codec-plan.js';
import { wireTypeOf } from './codec-plan.js';
import { readScalar, zeroScalar } from './codec-scalars.js';
import { readSpecial, specialZero } from './codec-special.js';
import { readTag } from './codec-tag.js';

function limit(r: Reader, end: number): number {
  const len = r.uint32();
  const sub = r.pos + len;
  if (sub > end) throw new Error('unexpected end of message');
  return sub;
}

function expectWireType(f: { name: string }, actual: number, expected: number): void {
  if (actual !== expected) throw new Error(`wrong wire type ${actual} for field ${f.name}`);
}

// A length-delimited value must end exactly at its declared length; a value read past it is corrupt input.
function expectEnd(r: Reader, end: number): void {
  if (r.pos !== end) throw new Error('unexpected end of message');
}

function readValue(r: Reader, f: FieldPlan, value: ValueKind, wireType: number, end: number): unknown {
  switch (value.kind) {
    case 'scalar':
      expectWireType(f, wireType, wireTypeOf(value.type));
      return readScalar(r, value.type, f.name);
    case 'enum':
      expectWireType(f, wireType, 0);
      return r.int32();
    case 'message': {
      expectWireType(f, wireType, 2);
      const sub = limit(r, end);
      const plan = value.plan();
      const decoded = decodeMessage(r, plan, sub);
      if (plan.oneOf) return oneOfValue(plan, decoded);
      return plan.listWrapperField === undefined ? decoded : (decoded[plan.listWrapperField] ?? []);
    }
    case 'special': {
      expectWireType(f, wireType, 2);
      const sub = limit(r, end);
      const out = readSpecial(r, value.special, sub);
      expectEnd(r, sub);
      return out;
    }
  }
}

/**
 * The JSON value of a decoded union, as Go's MarshalJSON of apiextensions' unions picks it: the `array` field when
 * it has elements, else the `object` field when present, else the `boolean` field (false when absent: Go's zero
 * bool), else null.
 */
function oneOfValue(plan: MessagePlan, decoded: Record<string, unknown>): unknown {
  const { array, object, boolean } = plan.oneOf!;
  const elements = array && decoded[array.name];
  if (Array.isArray(elements) && elements.length > 0) return elements;
  if (object && decoded[object.name] !== undefined) return decoded[object.name];
  if (boolean) return decoded[boolean.name] ?? false;
  return null;
}

function zeroValue(value: ValueKind): unknown {
  switch (value.kind) {
    case 'scalar':
      return zeroScalar(value.type);
    case 'enum':
      return 0;
    case 'message': {
      const plan = value.plan();
      if (plan.oneOf) return oneOfValue(plan, {});
      return plan.listWrapperField === undefined ? {} : [];
    }
    case 'special':
      return specialZero(value.special);
  }
}

function readMapEntry(r: Reader, f: FieldPlan, wireType: number, end: number, into: Record<string, unknown>): void {
  expectWireType(f, wireType, 2);
  const sub = limit(r, end);
  const keyType = f.mapKey!;
  let key: unknown = zeroScalar(keyType);
  let value: unknown;
  while (r.pos < sub) {
    const t = readTag(r);
    if (t >>> 3 === 1) {
      expectWireType(f, t & 7, wireTypeOf(keyType));
      key = readScalar(r, keyType, f.name);
    } else if (t >>> 3 === 2) value = readValue(r, f, f.value, t & 7, sub);
    else r.skipType(t & 7);
  }
  expectEnd(r, sub);
  setKey(into, String(key), value === undefined ? zeroValue(f.value) : value);
}

// `__proto__` is a valid ConfigMap key; keep it an own property instead of a prototype change.
function setKey(into: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}

function readRepeated(r: Reader, f: FieldPlan, wireType: number, end: number, into: unknown[]): void {
  const scalar = f.value.kind === 'scalar' ? f.value.type : f.value.kind === 'enum' ? 'int32' : undefined;
  if (wireType === 2 && scalar !== undefined && wireTypeOf(scalar) !== 2) {
    const sub = limit(r, end);
    while (r.pos < sub) into.push(readScalar(r, scalar, f.name));
    expectEnd(r, sub);
    return;
  }
  into.push(readValue(r, f, f.value, wireType, end));
}

/** Reads message `plan` from the reader's position up to `end`. */
export function decodeMessage(r: Reader, plan: MessagePlan, end: number): Record<string, unknown> {
  const values = new Map<FieldPlan, unknown>();
  while (r.pos < end) {
    const t = readTag(r);
    const wireType = t & 7;
    const f = plan.byId.get(t >>> 3);
    if (f === undefined) {
      r.skipType(wireType);
      continue;
    }
    if (f.mapKey !== undefined) {
      let map = values.get(f) as Record<string, unknown> | undefined;
      if (!map) values.set(f, (map = {}));
      readMapEntry(r, f, wireType, end, map);
    } else if (f.repeated) {
      let list = values.get(f) as unknown[] | undefined;
      if (!list) values.set(f, (list = []));
      readRepeated(r, f, wireType, end, list);
    } else {
      values.set(f, readValue(r, f, f.value, wireType, end));
    }
  }
  expectEnd(r, end);
  const out: Record<string, unknown> = {};
  for (const f of plan.declared) {
    if (!values.has(f)) continue;
    const v = values.get(f);
    // Go's non-pointer omitempty scalar: its zero value is what Go writes for unset, and Go's JSON leaves it out.
    if (f.omitZero && (v === 0 || v === false || v === '')) continue;
    if (f.inline) Object.assign(out, v);
    else out[f.name] = v;
  }
  return out;
}
