// The ObjectMeta of embedded resources in default values, as kube decodes and validates it (objectmeta.Coerce and
// objectmeta.Validate): a JSON decode into metav1.ObjectMeta, then ValidateObjectMeta with path-segment names.
import { isLabelKey, isLabelValue, type FieldError } from '@kapi/apimachinery';
import { isValidPathSegmentName, isValidPathSegmentPrefix } from '@kapi/apiserver';
import { isDNS1123Label } from '../dns.js';
import { child, invalid } from '../field.js';
import { isObject } from '../json.js';

const STRINGS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'];
const STRING_MAPS = ['labels', 'annotations'];

const jsonKind = (v: unknown): string =>
  Array.isArray(v) ? 'array' : isObject(v) ? 'object' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';

/** Why `metadata` does not decode into metav1.ObjectMeta (Go's json error), or undefined. */
export function objectMetaDecodeError(metadata: unknown): string | undefined {
  if (metadata === null) return undefined;
  if (!isObject(metadata)) return `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
  const cannot = (v: unknown, field: string, type: string): string =>
    `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${field} of type ${type}`;
  for (const f of STRINGS) {
    const v = metadata[f];
    if (v !== undefined && v !== null && typeof v !== 'string') return cannot(v, f, f.endsWith('Timestamp') ? 'v1.Time' : 'string');
  }
  for (const f of ['generation', 'deletionGracePeriodSeconds']) {
    const v = metadata[f];
    if (v !== undefined && v !== null && !Number.isInteger(v)) return cannot(v, f, 'int64');
  }
  for (const f of STRING_MAPS) {
    const v = metadata[f];
    if (v === undefined || v === null) continue;
    if (!isObject(v)) return cannot(v, f, 'map[string]string');
    for (const x of Object.values(v)) if (x !== null && typeof x !== 'string') return cannot(x, f, 'string');
  }
  const finalizers = metadata.finalizers;
  if (finalizers !== undefined && finalizers !== null) {
    if (!Array.isArray(finalizers)) return cannot(finalizers, 'finalizers', '[]string');
    for (const x of finalizers) if (x !== null && typeof x !== 'string') return cannot(x, 'finalizers', 'string');
  }
  return undefined;
}

/**
 * ValidateObjectMeta of a decoded embedded ObjectMeta (name defaulted to `fakename`, names checked as path segments):
 * name, generateName, namespace, labels and annotation keys.
 */
export function validateEmbeddedObjectMeta(meta: Record<string, any>, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const name: string = meta.name || 'fakename';
  if (meta.generateName) {
    for (const msg of isValidPathSegmentPrefix(meta.generateName)) errs.push(invalid(child(fldPath, 'generateName'), meta.generateName, msg));
  }
  for (const msg of isValidPathSegmentName(name)) errs.push(invalid(child(fldPath, 'name'), name, msg));
  if (meta.namespace) for (const msg of isDNS1123Label(meta.namespace)) errs.push(invalid(child(fldPath, 'namespace'), meta.namespace, msg));
  if (Number.isInteger(meta.generation) && meta.generation < 0) {
    errs.push(invalid(child(fldPath, 'generation'), meta.generation, 'must be greater than or equal to 0'));
  }
  for (const [k, v] of Object.entries((meta.labels ?? {}) as Record<string, string>)) {
    for (const msg of isLabelKey(k)) errs.push(invalid(child(fldPath, 'labels'), k, msg));
    for (const msg of isLabelValue(v ?? '')) errs.push(invalid(child(fldPath, 'labels'), v, msg));
  }
  for (const k of Object.keys((meta.annotations ?? {}) as Record<string, string>)) {
    for (const msg of isLabelKey(k.toLowerCase())) errs.push(invalid(child(fldPath, 'annotations'), k, msg));
  }
  return errs;
}
