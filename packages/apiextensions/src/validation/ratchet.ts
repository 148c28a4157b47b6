// On update kube tightens no rule the stored object already breaks: each option below is strict unless the old
// CRD fails it (ValidateCustomResourceDefinitionUpdate's option functions).
import { hasValidConversionReviewVersionOrEmpty } from './conversion.js';
import { caBundleError } from './webhook.js';
import { isEstablished, toInternalSpec, type Spec } from './internal.js';
import { has, jsonClone, jsonEqual } from './json.js';
import { mapListKeysMapSet } from './schema/extensions.js';
import { OPENAPI_V3_TYPES } from './schema/openapi.js';
import { itemsSchema, newStructuralError, properties, schemaHas } from './schema/nodes.js';
import { prune } from './schema/prune.js';
import { validateStructural } from './schema/structural.js';
import { specHasSchemaWith, specSchemas, type SpecOptions } from './spec.js';
import type { CRD, JSONSchema } from './types.js';

const isNonStructural = (s: JSONSchema): boolean => newStructuralError(s) !== undefined || validateStructural('', s).length > 0;

// A default that pruning would change (approximates kube's PruneDefaults, which prunes within the whole object).
function hasUnprunedDefaults(schema: JSONSchema): boolean {
  if (!schemaHas(schema, (s) => has(s.default)) || isNonStructural(schema)) return false;
  const walk = (s: JSONSchema | undefined, root: boolean): boolean => {
    if (!s) return false;
    if (has(s.default)) {
      const pruned = jsonClone(s.default);
      prune(pruned, s, root || s['x-kubernetes-embedded-resource'] === true);
      if (!jsonEqual(pruned, s.default)) return true;
    }
    return walk(itemsSchema(s), false) || properties(s).some(([, p]) => walk(p, false));
  };
  return walk(schema, true);
}

const hasNonAtomicSetType = (s: JSONSchema): boolean => {
  const items = itemsSchema(s);
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return has(items['x-kubernetes-list-type']) && items['x-kubernetes-list-type'] !== 'atomic';
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
};

const allVersionsSpecifySchema = (spec: Spec): boolean =>
  has(spec.validation?.openAPIV3Schema) || spec.versions.every((v) => has(v.schema?.openAPIV3Schema));

/** The options of an update of `old`. */
export function updateOptions(old: CRD): SpecOptions {
  const spec = toInternalSpec(old);
  const schemas = specSchemas(spec);
  const cc = spec.conversion?.webhookClientConfig;
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: !spec.conversion || hasValidConversionReviewVersionOrEmpty(spec.conversion.conversionReviewVersions),
    requireImmutableNames: isEstablished(old),
    requireOpenAPISchema: allVersionsSpecifySchema(spec),
    requireValidPropertyType: !specHasSchemaWith(spec, (s) => !!s.type && !OPENAPI_V3_TYPES.includes(s.type)),
    requireStructuralSchema: !schemas.some(isNonStructural),
    requirePrunedDefaults: !schemas.some(hasUnprunedDefaults),
    requireAtomicSetType: !specHasSchemaWith(spec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !specHasSchemaWith(spec, (s) => mapListKeysMapSet(s, '').length > 0),
    // an invalid CA bundle may stay while the CRD is not Established, or when the stored one was invalid too
    allowInvalidCABundle: !isEstablished(old) || (!!cc?.caBundle && caBundleError(cc.caBundle) !== undefined),
  };
}
