// kube JSON → Protobuf bytes, walking the message plans. Byte layout follows Go's generated marshallers: fields in
// field-number order, every present field written (empty strings, zeros and false included), Go's non-pointer
// omitempty scalars (`kapi_omit_zero`) written also when absent (as their zero value), map entries sorted by key
// bytes, repeated scalars unpacked (proto2), embedded (inline) structs always written.
import type { Writer } from 'protobufjs';
import type { FieldPlan, MessagePlan, OneOfKind, OneOfPlan, ValueKind } from './codec-plan.js';
import { wireTypeOf } from './codec-plan.js';
import { shapeError, writeScalar, zeroScalar } from './codec-scalars.js';
import { NULLABLE_SPECIALS, specialZero, writeSpecial } from './codec-special.js';

const tag = (id: number, wireType: number): number => ((id << 3) | wireType) >>> 0;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function compareKeys(keyType: string): (a: string, b: string) => number {
  if (keyType === 'string') return (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (keyType === 'bool') return (a, b) => (a === b ? 0 : a === 'false' ? -1 : 1);
  return (a, b) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

function writeValue(w: Writer, id: number, value: ValueKind, v: unknown, path: string): void {
  switch (value.kind) {
    case 'scalar':
      w.uint32(tag(id, wireTypeOf(value.type)));
      writeScalar(w, value.type, v === null ? zeroScalar(value.type) : v, path);
      return;
    case 'enum':
      w.uint32(tag(id, 0));
      writeScalar(w, 'int32', v === null ? 0 : v, path);
      return;
    case 'message': {
      const plan = value.plan();
      if (plan.oneOf) {
        w.uint32(tag(id, 2)).fork();
        encodeOneOf(w, plan, plan.oneOf, v, path);
        w.ldelim();
        return;
      }
      let body: Record<string, unknown>;
      if (plan.listWrapperField !== undefined) {
        if (v !== null && !Array.isArray(v)) throw shapeError(path, 'an array', v);
        body = { [plan.listWrapperField]: v ?? [] };
      } else {
        if (v !== null && !isObject(v)) throw shapeError(path, 'an object', v);
        body = v ?? {};
      }
      w.uint32(tag(id, 2)).fork();
      encodeMessage(w, plan, body, path);
      w.ldelim();
      return;
    }
    case 'special':
      w.uint32(tag(id, 2)).fork();
      writeSpecial(w, value.special, v === null ? specialZero(value.special) : v, path);
      w.ldelim();
      return;
  }
}

function writeMap(w: Writer, f: FieldPlan, v: unknown, path: string): void {
  if (!isObject(v)) throw shapeError(path, 'an object (map)', v);
  const keyType = f.mapKey!;
  for (const key of Object.keys(v).sort(compareKeys(keyType))) {
    const item = v[key];
    if (item === undefined) continue;
    const keyValue = keyType === 'string' ? key : keyType === 'bool' ? key === 'true' : key;
    w.uint32(tag(f.id, 2)).fork();
    w.uint32(tag(1, wireTypeOf(keyType)));
    writeScalar(w, keyType, keyValue, `${path}[${key}]`);
    writeValue(w, 2, f.value, item, `${path}[${key}]`);
    w.ldelim();
  }
}

function writeRepeated(w: Writer, f: FieldPlan, v: unknown, path: string): void {
  if (!Array.isArray(v)) throw shapeError(path, 'an array', v);
  const scalar = f.value.kind === 'scalar' ? f.value.type : f.value.kind === 'enum' ? 'int32' : undefined;
  if (f.packed && scalar !== undefined && wireTypeOf(scalar) !== 2) {
    if (v.length === 0) return;
    w.uint32(tag(f.id, 2)).fork();
    v.forEach((item, i) => writeScalar(w, scalar, item ?? zeroScalar(scalar), `${path}[${i}]`));
    w.ldelim();
    return;
  }
  v.forEach((item, i) => writeValue(w, f.id, f.value, item, `${path}[${i}]`));
}

const jsonKind = (v: unknown): OneOfKind | undefined =>
  typeof v === 'boolean' ? 'boolean' : Array.isArray(v) ? 'array' : isObject(v) ? 'object' : undefined;

/**
 * Writes a union's JSON value as the field its JSON type picks: an object as the `object` field, an array as the
 * `array` field's elements, a boolean as the `boolean` field. The `boolean` field is always written, as Go writes
 * a non-pointer bool: true for `true` and for an object (JSONSchemaPropsOrBool: a schema allows), false otherwise.
 * null (an element or map value, where Go keeps the zero union) writes no other field.
 */
function encodeOneOf(w: Writer, plan: MessagePlan, oneOf: OneOfPlan, v: unknown, path: string): void {
  const kind = jsonKind(v);
  const member = kind === undefined ? undefined : oneOf[kind];
  if (v !== null && member === undefined) {
    const kinds = Object.keys(oneOf).map((k) => (k === 'boolean' ? 'a boolean' : k === 'object' ? 'an object' : 'an array'));
    throw shapeError(path, kinds.join(' or '), v);
  }
  for (const f of plan.byNumber) {
    if (f === oneOf.boolean) writeValue(w, f.id, f.value, v === true || kind === 'object', path);
    else if (f === member) {
      if (f.mapKey !== undefined) writeMap(w, f, v, path);
      else if (f.repeated) writeRepeated(w, f, v, path);
      else writeValue(w, f.id, f.value, v, path);
    }
  }
}

/** Writes the fields of `obj` as message `plan` (without a tag or length). */
export function encodeMessage(w: Writer, plan: MessagePlan, obj: Record<string, unknown>, path: string): void {
  for (const f of plan.byNumber) {
    const fieldPath = path ? `${path}.${f.name}` : f.name;
    if (f.inline) {
      // A Go-embedded struct: its fields sit in this JSON object, and Go always writes the (value) struct.
      if (f.value.kind !== 'message') throw new Error(`${fieldPath}: an inline field must be a message`);
      w.uint32(tag(f.id, 2)).fork();
      encodeMessage(w, f.value.plan(), obj, path);
      w.ldelim();
      continue;
    }
    const v = obj[f.name];
    if (f.omitZero && (v === undefined || v === null) && f.value.kind === 'scalar') {
      // Go's non-pointer scalar: unset is its zero value, and Go writes it.
      writeValue(w, f.id, f.value, zeroScalar(f.value.type), fieldPath);
      continue;
    }
    if (v === undefined) continue;
    if (f.mapKey !== undefined) {
      if (v !== null) writeMap(w, f, v, fieldPath);
    } else if (f.repeated) {
      if (v !== null) writeRepeated(w, f, v, fieldPath);
    } else if (v !== null || (f.value.kind === 'special' && NULLABLE_SPECIALS.has(f.value.special))) {
      writeValue(w, f.id, f.value, v, fieldPath);
    }
  }
}
