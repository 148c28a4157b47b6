import { goFloat, newBadRequest, newInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { openAPIName } from '../openapi/schemas.js';
import { goFieldOfType } from './go-type-error.js';
import { metaOf } from './object-meta.js';
import type { ResourceEntry } from './resources.js';

const JSON_TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'bool', object: 'object' };

/** The kind of JSON value Go's decoder names in its error: a number a numeric type could not take by its text (`number 1.5`). */
function goValue(value: unknown, numericTarget: boolean): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return numericTarget ? `number ${goFloat(value)}` : 'number';
  return JSON_TYPES[typeof value] ?? 'value';
}

/** The pattern resource.Quantity's decoder names when a value is not a quantity. */
const QUANTITY_PATTERN = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/**
 * A value of the wrong type is a decoding error in kube (400 at every validation level, reporting only the first
 * one and nothing about unknown or duplicate fields), not a validation error: the error kube's decoder gives for
 * the first such value among `errs`, if any, in Go's words (`json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`; the types that decode themselves, IntOrString, Time and Quantity, with
 * their own). Kinds decoded as unstructured JSON (custom resources: no Protobuf message) have no such step: their
 * schema reports wrong types with the other validation errors.
 */
export function decodeTypeError(entry: ResourceEntry, errs: readonly FieldError[]) {
  if (!entry.info.protobuf.message) return undefined;
  const fatal = errs.find((e) => e.type === 'FieldValueTypeInvalid');
  if (!fatal) return undefined;
  const { kind, version } = entry.info;
  const openapi = entry.group.openapi;
  const at = openapi && goFieldOfType(openapi, openAPIName(entry.info.protobuf.message), fatal.field);
  const cannot = (message: string) => newBadRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${message}`);
  if (!at) {
    const want = fatal.message.replace(/^must be of type /, '');
    return cannot(`json: cannot unmarshal ${goValue(fatal.badValue, /int|number/.test(want))} into Go struct field ${fatal.field} of type ${want}`);
  }
  const own = entry.strategy.goDecodeErrors?.[at.type];
  if (own !== undefined) return cannot(own);
  switch (at.type) {
    case 'intstr.IntOrString':
      return cannot(`json: cannot unmarshal ${goValue(fatal.badValue, true)} into Go value of type int32`);
    case 'v1.Time':
    case 'v1.MicroTime':
      return cannot(`json: cannot unmarshal ${goValue(fatal.badValue, false)} into Go value of type string`);
    case 'resource.Quantity':
      return cannot(`quantities must match the regular expression ${QUANTITY_PATTERN}`);
    default:
      return cannot(`json: cannot unmarshal ${goValue(fatal.badValue, /^(u?int|float)/.test(at.type))} into Go struct field ${at.struct}.${at.field} of type ${at.type}`);
  }
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
