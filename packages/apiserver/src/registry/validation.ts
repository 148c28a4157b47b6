import { goFloat, newBadRequest, newInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { metaOf } from './object-meta.js';
import type { ResourceEntry } from './resources.js';

const JSON_TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'bool', object: 'object' };

/**
 * A value of the wrong type is a decoding error in kube (400 at every validation level, reporting only the first
 * one and nothing about unknown or duplicate fields), not a validation error: the error kube's decoder gives for
 * the first such value among `errs`, if any. Kinds decoded as unstructured JSON (custom resources: no Protobuf
 * message) have no such step: their schema reports wrong types with the other validation errors.
 */
export function decodeTypeError(entry: ResourceEntry, errs: readonly FieldError[]) {
  if (!entry.info.protobuf.message) return undefined;
  const fatal = errs.find((e) => e.type === 'FieldValueTypeInvalid');
  if (!fatal) return undefined;
  const { kind, version } = entry.info;
  const want = fatal.message.replace(/^must be of type /, '');
  // Go names a number a numeric field could not take by its text: `number 1.5`, `number 1099511627776`.
  const got = Array.isArray(fatal.badValue)
    ? 'array'
    : typeof fatal.badValue === 'number' && /int|number/.test(want)
      ? `number ${goFloat(fatal.badValue)}`
      : JSON_TYPES[typeof fatal.badValue] ?? 'value';
  return newBadRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${got} into Go struct field ${fatal.field} of type ${want}`);
}

/**
 * Throws the 400 of a wrongly typed value (among `schemaErrs`, the kind's schema validation: what kube's decoding
 * would have refused), or 422 Invalid naming every field error. A schema error the kind's own validation also
 * reports (the same type at the same field, kube's text) is left out: kube reports its hand-written one only.
 */
export function throwIfInvalid(entry: ResourceEntry, obj: KubeObject, errs: readonly FieldError[], schemaErrs: readonly FieldError[] = errs): void {
  if (!errs.length) return;
  const typeError = decodeTypeError(entry, schemaErrs);
  if (typeError) throw typeError;
  const key = (e: FieldError) => `${e.type}\u0000${e.field}`;
  const schema = new Set(schemaErrs);
  const own = entry.strategy.independentSchemaErrors ? new Set<string>() : new Set(errs.filter((e) => !schema.has(e)).map(key));
  const reported = own.size ? errs.filter((e) => !schema.has(e) || !own.has(key(e))) : errs;
  throw newInvalid({ group: entry.info.group, kind: entry.info.kind }, String(metaOf(obj).name ?? ''), [...reported]);
}
