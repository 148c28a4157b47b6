import { parseRFC3339, validateAnnotations, validateLabels, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { namePrefixValidatorFor, nameValidatorFor } from './names.js';
import type { ResourceEntry } from './resources.js';

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
  // The kind's own name rule only. kube checks the path-segment rule in a second pass (rest.BeforeCreate's common
  // ObjectMeta validation), and only once the kind's validation passed: none of the DNS rules lets a name with `/`
  // or `%` (or `.`, `..`) pass, so that pass adds nothing for them, and a PathSegment kind's rule is that rule.
  return validateObjectMetaAt(metaOf(obj), 'metadata', {
    name: nameValidatorFor(entry.info),
    prefix: namePrefixValidatorFor(entry.info),
    namespaced: entry.info.scope === 'Namespaced',
  });
}

/** How {@link validateObjectMetaAt} checks a name, and whether the object must have a namespace. */
export interface ObjectMetaRules {
  /** The name rule: its messages for a name that breaks it. */
  name(name: string): string[];
  /** The same rule for a generateName (kube's name function with prefix true); a generateName is not checked without it. */
  prefix?(generateName: string): string[];
  namespaced: boolean;
}

/**
 * kube's ValidateObjectMeta of the metadata at `path` (`metadata`, or an object's embedded in another): a name or
 * generateName, the namespace when the kind requires one, labels, annotations, owner references and finalizers.
 */
export function validateObjectMetaAt(meta: Record<string, any>, path: string, rules: ObjectMetaRules): FieldError[] {
  const errs: FieldError[] = [];
  const name = meta.name as string | undefined;
  const generateName = meta.generateName;
  if (typeof generateName === 'string' && generateName && rules.prefix) {
    for (const msg of rules.prefix(generateName)) errs.push(invalid(`${path}.generateName`, generateName, msg));
  }
  if (!name) {
    if (!meta.generateName) {
      errs.push({ type: 'FieldValueRequired', field: `${path}.name`, message: 'name or generateName is required' });
    }
  } else {
    for (const msg of rules.name(name)) errs.push(invalid(`${path}.name`, name, msg));
  }
  if (rules.namespaced && !meta.namespace) {
    errs.push({ type: 'FieldValueRequired', field: `${path}.namespace`, message: '' });
  }
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`));
  const finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as unknown[]) : [];
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(`${path}.finalizers`, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/**
 * kube's ValidateOwnerReferences: each reference names a version, kind, name and uid (the path is the list's, as
 * kube reports it), Events may not own anything, and only one reference is the controller.
 */
function validateOwnerReferences(refs: unknown, field: string): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let controller = '';
  for (const ref of refs as { apiVersion?: unknown; kind?: unknown; name?: unknown; uid?: unknown; controller?: unknown }[]) {
    if (!ref || typeof ref !== 'object') continue;
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    // Missing fields are the schema's "Required value"; present but empty ones are these.
    if (typeof ref.apiVersion === 'string' && !version) errs.push(invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (ref.kind === '') errs.push(invalid(`${field}.kind`, kind, 'kind must not be empty'));
    if (ref.name === '') errs.push(invalid(`${field}.name`, '', 'name must not be empty'));
    if (ref.uid === '') errs.push(invalid(`${field}.uid`, '', 'uid must not be empty'));
    if (apiVersion === 'v1' && kind === 'Event') errs.push(invalid(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref.controller === true) {
      const current = `${kind}/${String(ref.name ?? '')}`;
      if (controller) errs.push(invalid(field, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`));
      else controller = current;
    }
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
  // kube's ValidateNoNewFinalizers: what is being deleted may lose finalizers, not gain them.
  if (oldMeta.deletionTimestamp) {
    const had = new Set((oldMeta.finalizers as string[] | undefined) ?? []);
    const added = [...new Set(((meta.finalizers as unknown[] | undefined) ?? []).filter((f): f is string => typeof f === 'string' && !had.has(f)))].sort();
    if (added.length) {
      errs.push({
        type: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        message: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
      });
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
