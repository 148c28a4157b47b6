import { isLabelKey, isLabelValue, parseRFC3339, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { isValidPathSegmentName, nameValidatorFor } from './names.js';
import type { ResourceEntry } from './resources.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

type Meta = Record<string, any>;
export const metaOf = (obj: KubeObject): Meta => (obj.metadata ??= {}) as Meta;

const invalid = (field: string, badValue: unknown, message: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue,
  message,
});

/** kube's ValidateObjectMeta: name (or generateName), namespace presence, labels and annotations. */
export function validateObjectMeta(entry: ResourceEntry, obj: KubeObject): FieldError[] {
  const meta = metaOf(obj);
  const errs: FieldError[] = [];
  const name = meta.name as string | undefined;
  if (!name) {
    if (!meta.generateName) {
      errs.push({ type: 'FieldValueRequired', field: 'metadata.name', message: 'name or generateName is required' });
    }
  } else {
    const validate = nameValidatorFor(entry.info);
    for (const msg of [...isValidPathSegmentName(name), ...(validate === isValidPathSegmentName ? [] : validate(name))]) {
      errs.push(invalid('metadata.name', name, msg));
    }
  }
  if (entry.info.scope === 'Namespaced' && !meta.namespace) {
    errs.push({ type: 'FieldValueRequired', field: 'metadata.namespace', message: '' });
  }
  for (const [key, value] of Object.entries((meta.labels ?? {}) as Record<string, unknown>)) {
    for (const msg of isLabelKey(key)) errs.push(invalid('metadata.labels', key, msg));
    if (typeof value === 'string') for (const msg of isLabelValue(value)) errs.push(invalid('metadata.labels', value, msg));
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries((meta.annotations ?? {}) as Record<string, unknown>)) {
    for (const msg of isLabelKey(key)) errs.push(invalid('metadata.annotations', key, msg));
    annotationBytes += Buffer.byteLength(key) + Buffer.byteLength(String(value ?? ''));
  }
  if (annotationBytes > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errs.push({
      type: 'FieldValueTooLong',
      field: 'metadata.annotations',
      message: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    });
  }
  return errs;
}

/** kube's ValidateObjectMetaUpdate: identity fields are immutable. */
export function validateObjectMetaUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const meta = metaOf(obj);
  const oldMeta = metaOf(old);
  const errs: FieldError[] = [];
  for (const field of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    if ((meta[field] ?? '') !== (oldMeta[field] ?? '')) {
      errs.push(invalid(`metadata.${field}`, meta[field] ?? '', 'field is immutable'));
    }
  }
  return errs;
}

/**
 * Whether two metav1.Time texts are the same instant, as kube compares the times it decoded: any RFC 3339 form
 * counts (`+00:00` as the Python client writes, `Z` as kube does); text that is no time equals only itself.
 */
export function sameTime(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  try {
    const [x, y] = [parseRFC3339(a), parseRFC3339(b)];
    return x.seconds === y.seconds && x.nanos === y.nanos;
  } catch {
    return false;
  }
}

export { nowTimestamp } from '@kapi/apimachinery';

const EMPTY_DROPPED = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const;

/** Go's `omitempty`: an empty map or list in these metadata fields is not written, so it is not stored either. */
export function dropEmptyMetadata(obj: KubeObject): void {
  const meta = metaOf(obj);
  for (const field of EMPTY_DROPPED) {
    const value = meta[field];
    if (value && typeof value === 'object' && Object.keys(value).length === 0) delete meta[field];
  }
}
