import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import type { FieldError, KubeObject } from '@kapi/apimachinery';
import type { RequestContext, Strategy } from '@kapi/apiserver';
import { isObject } from '../validation/json.js';
import { childSchemas } from '../validation/schema/nodes.js';
import type { JSONSchema } from '../validation/types.js';

/** The finalizer a CRD gets when it is deleted, held until its custom resources are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The checks of a CRD's content (validation/), given to the strategy so they stay in one place. */
export interface CRDValidation {
  validate(crd: CustomResourceDefinition): FieldError[];
  validateUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[];
  validateStatus(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[];
}

const asCRD = (obj: KubeObject) => obj as unknown as CustomResourceDefinition;

/** Adds the storage version to status.storedVersions when it is not listed yet (kube's PrepareForCreate/Update). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (storage && !stored.includes(storage)) stored.push(storage);
}

/** A version's `served` and `storage` left out are false, as kube's decoding makes them (and writes them back). */
function zeroFlags(crd: CustomResourceDefinition): void {
  for (const v of crd.spec?.versions ?? []) {
    if (typeof v !== 'object' || v === null) continue;
    v.served ??= false;
    v.storage ??= false;
  }
}

/**
 * What kube's decoding of a schema keeps of values its own decoders take apart: an `items` (JSONSchemaPropsOrArray)
 * that is neither an object nor a list is dropped without a word (the schema checks then say what is missing), and
 * such a `dependencies` value (JSONSchemaPropsOrStringArray) left empty, as their UnmarshalJSON does.
 */
function dropUndecodable(schema: unknown): void {
  if (!isObject(schema)) return;
  const node = schema as JSONSchema & Record<string, unknown>;
  const takesApart = (value: unknown) => typeof value === 'object' && value !== null;
  if ('items' in node && !takesApart(node.items)) delete node.items;
  if (isObject(node.dependencies)) {
    for (const [name, value] of Object.entries(node.dependencies)) if (!takesApart(value)) node.dependencies[name] = {};
  }
  childSchemas(node).forEach(dropUndecodable);
}

/** A CRD body as kube decodes its versions' schemas (see dropUndecodable). */
function decodeSchemas(crd: CustomResourceDefinition): void {
  const versions = crd.spec?.versions;
  if (!Array.isArray(versions)) return;
  for (const v of versions) dropUndecodable((v as { schema?: { openAPIV3Schema?: unknown } } | null)?.schema?.openAPIV3Schema);
}

/**
 * How CustomResourceDefinitions are written (apiextensions-apiserver's registry/customresourcedefinition): a new
 * CRD starts with empty accepted names and its storage version stored; the storage version is recorded as stored
 * whenever it changes; deleting a CRD keeps it (deletionTimestamp, the cleanup finalizer) until the controller has
 * deleted its custom resources.
 */
export function crdStrategy(validation: CRDValidation): Strategy {
  return {
    // kube decodes a missing `served`, `storage`, `jsonPath` or condition `type` as its zero value; its own checks
    // (validation/) say what is wrong with that, and nothing else does.
    schemaRequired: false,
    goDecodeErrors: { 'v1.JSONSchemaPropsOrBool': 'boolean or JSON schema expected' },
    decode: (obj) => decodeSchemas(asCRD(obj)),
    prepareForCreate(obj) {
      zeroFlags(asCRD(obj));
      obj.status = { acceptedNames: { plural: '', kind: '' } };
      recordStorageVersion(asCRD(obj));
    },
    prepareForUpdate(obj) {
      zeroFlags(asCRD(obj));
      recordStorageVersion(asCRD(obj));
    },
    validate: (obj) => validation.validate(asCRD(obj)),
    validateUpdate(obj, old, ctx: RequestContext) {
      if (ctx.subresource === 'status') return validation.validateStatus(asCRD(obj), asCRD(old));
      return validation.validateUpdate(asCRD(obj), asCRD(old));
    },
    // The first delete holds the CRD back and adds the cleanup finalizer, which then holds it.
    deletionPending: (obj) => !(obj.metadata as { deletionTimestamp?: string }).deletionTimestamp,
    prepareForDelete(obj) {
      const meta = obj.metadata as { finalizers?: string[] };
      if (!meta.finalizers?.includes(CLEANUP_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), CLEANUP_FINALIZER];
    },
  };
}
