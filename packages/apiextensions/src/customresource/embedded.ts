import { fieldInvalid, fieldRequired, isDNS1035Label, isDNS1123Label, isObj, metaValidators, type FieldError } from '@kapi/apimachinery';
import { isValidPathSegmentName, isValidPathSegmentPrefix, validateObjectMetaAt } from '@kapi/apiserver';
import { goBadValue } from './go-value.js';

// An object a CRD marks `x-kubernetes-embedded-resource` (a pod template, say) is checked as kube's
// schema/objectmeta validateEmbeddedResource checks it: it names an apiVersion and a kind, and its metadata, if any, is
// an ObjectMeta that kube's ValidateObjectMeta accepts (any name allowed as a path segment; the name may be left out).

const objectMetaTypes = metaValidators['meta.k8s.io/v1/ObjectMeta'];

/** Go's JSON type name of a value, as its unmarshal errors print it. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/**
 * The error Go gives when the metadata does not decode into an ObjectMeta (kube reports it as is), or undefined.
 * Go names the struct field without indices or map keys: `ObjectMeta.labels`, `ObjectMeta.ownerReferences.name`.
 */
function decodeError(meta: unknown): string | undefined {
  if (meta === null) return undefined;
  if (!isObj(meta)) return `json: cannot unmarshal ${jsonType(meta)} into Go value of type v1.ObjectMeta`;
  const wrong = objectMetaTypes?.(meta).find((e) => e.type === 'FieldValueTypeInvalid');
  if (!wrong) return undefined;
  const field = wrong.field.replace(/\[[^\]]*\]/g, '').replace(/^(labels|annotations)\..*$/, '$1');
  const want = wrong.message.replace(/^must be of type /, '');
  return `json: cannot unmarshal ${jsonType(wrong.badValue)} into Go struct field ObjectMeta.${field} of type ${want}`;
}

const typeMetaErrors = (value: Record<string, unknown>, field: 'apiVersion' | 'kind', path: string): FieldError[] => {
  if (!(field in value)) return [fieldRequired(path)];
  const v = value[field];
  if (typeof v !== 'string') return [fieldInvalid(path, v, 'must be a string')];
  if (!v) return [fieldInvalid(path, v, 'must not be empty')];
  if (field === 'apiVersion') return v.split('/').length > 2 ? [fieldInvalid(path, v, `unexpected GroupVersion string: ${v}`)] : [];
  const errs = isDNS1035Label(v.toLowerCase());
  return errs.length ? [fieldInvalid(path, v, `may have mixed case, but should otherwise match: ${errs.join(',')}`)] : [];
};

/** The errors of an embedded resource at `path`. */
export function embeddedResourceErrors(value: Record<string, unknown>, path: string): FieldError[] {
  const errs = [...typeMetaErrors(value, 'apiVersion', `${path}.apiVersion`), ...typeMetaErrors(value, 'kind', `${path}.kind`)];
  if (!('metadata' in value)) return errs;
  const metaPath = `${path}.metadata`;
  const decodeFailure = decodeError(value.metadata);
  if (decodeFailure) return [...errs, fieldInvalid(metaPath, goBadValue(value.metadata), decodeFailure)];
  const meta = { ...((value.metadata as Record<string, unknown> | null) ?? {}) };
  // kube gives a nameless template a name to check, so that leaving it out is no error.
  if (!meta.name) meta.name = 'fakename';
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  errs.push(...validateObjectMetaAt(meta, metaPath, { name: isValidPathSegmentName, prefix: isValidPathSegmentPrefix, namespaced: namespace !== '' }));
  for (const msg of namespace ? isDNS1123Label(namespace) : []) errs.push(fieldInvalid(`${metaPath}.namespace`, namespace, msg));
  return errs;
}
