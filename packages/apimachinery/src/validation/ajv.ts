import type { FieldError, ObjectValidator } from './types.js';
import { fieldNotSupported } from '../errors/field-errors.js';

export type { ObjectValidator } from './types.js';

/** The shape of an ajv error object that precompiled (standalone) validators report. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A precompiled ajv validate function, as the generator emits them. */
export interface AjvValidateFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/** Formats a JSON-pointer path as kube writes field paths: `spec.containers[0].name`. */
export function fieldPath(instancePath: string, data: unknown): string {
  let out = '';
  let value: unknown = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      out += `[${segment}]`;
      value = value[Number(segment)];
    } else {
      out += out ? `.${segment}` : segment;
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return out;
}

function valueAt(instancePath: string, data: unknown): unknown {
  let value = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value;
}

const join = (base: string, child: string) => (base ? `${base}.${child}` : child);

/** Converts ajv errors to kube field errors: required → Required value, type → Invalid value, enum → Unsupported value. */
export function fromAjvErrors(errors: readonly AjvError[], data: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // A union checks each alternative's schema under `if` its JSON type: the failures inside are reported, not
    // the summary that the `then` branch failed.
    if (e.keyword === 'if') continue;
    const path = fieldPath(e.instancePath, data);
    let error: FieldError;
    if (e.keyword === 'required') {
      error = { type: 'FieldValueRequired', field: join(path, String(e.params.missingProperty)), message: '' };
    } else if (e.keyword === 'enum') {
      error = fieldNotSupported(path, valueAt(e.instancePath, data), e.params.allowedValues as unknown[]);
    } else if (e.keyword === 'type') {
      const badValue = valueAt(e.instancePath, data);
      const want = Array.isArray(e.params.type) ? (e.params.type as string[]).join(' or ') : String(e.params.type);
      error = { type: 'FieldValueTypeInvalid', field: path, badValue, message: `must be of type ${want}` };
    } else if ((e.keyword === 'minimum' || e.keyword === 'maximum') && (e.params.limit === -2147483648 || e.params.limit === 2147483647)) {
      // Beyond an int32 field's range: a decoding error, as Go's decoder reports it.
      error = { type: 'FieldValueTypeInvalid', field: path, badValue: valueAt(e.instancePath, data), message: 'must be of type int32' };
    } else {
      error = { type: 'FieldValueInvalid', field: path, badValue: valueAt(e.instancePath, data), message: e.message ?? e.keyword };
    }
    const key = `${error.type}\0${error.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}

/** Wraps a precompiled validator as an {@link ObjectValidator}. */
export function fromAjv(validate: AjvValidateFunction): ObjectValidator {
  return (obj) => (validate(obj) ? [] : fromAjvErrors(validate.errors ?? [], obj));
}
