/**
 * The parts of a structural OpenAPI v3 schema (a CRD's `openAPIV3Schema`, as plain JSON) that CEL rules depend on.
 */
export interface StructuralSchema {
  type?: string;
  format?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  maxItems?: number;
  maxProperties?: number;
  maxLength?: number;
  allOf?: StructuralSchema[];
  'x-kubernetes-validations'?: ValidationRule[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
  [key: string]: unknown;
}

/** One entry of `x-kubernetes-validations` (apiextensions.k8s.io/v1 ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const STRING: StructuralSchema = { type: 'string' };

/** The schema of a map's values (`additionalProperties` as a schema), if the node is a map. */
export function mapValueSchema(s: StructuralSchema): StructuralSchema | undefined {
  const ap = s.additionalProperties;
  return ap && typeof ap === 'object' ? ap : undefined;
}

/**
 * kube's WithTypeAndObjectMeta: at the root of a resource (a custom resource or an embedded resource), `apiVersion`,
 * `kind`, `metadata.name` and `metadata.generateName` are always visible to rules, and `metadata` holds nothing else.
 */
export function withTypeAndObjectMeta(s: StructuralSchema): StructuralSchema {
  const p = s.properties ?? {};
  const meta = p.metadata?.properties;
  if (p.kind?.type === 'string' && p.apiVersion?.type === 'string' && meta?.name?.type === 'string' && meta?.generateName?.type === 'string') {
    return s;
  }
  return {
    ...s,
    type: s.type ?? 'object',
    properties: {
      ...p,
      kind: STRING,
      apiVersion: STRING,
      metadata: { type: 'object', properties: { name: STRING, generateName: STRING } },
    },
  };
}

/** Whether a node is a list whose items correlate with the old list's by their keys (`x-kubernetes-list-type: map`). */
export function isMapList(s: StructuralSchema): boolean {
  return s.type === 'array' && s['x-kubernetes-list-type'] === 'map' && (s['x-kubernetes-list-map-keys']?.length ?? 0) > 0;
}

/** Whether anything at or under this node has `x-kubernetes-validations`. */
export function hasValidations(s: StructuralSchema | undefined, seen = new Set<StructuralSchema>()): boolean {
  if (!s || typeof s !== 'object' || seen.has(s)) return false;
  seen.add(s);
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true;
  if (hasValidations(s.items, seen) || hasValidations(mapValueSchema(s), seen)) return true;
  for (const p of Object.values(s.properties ?? {})) if (hasValidations(p, seen)) return true;
  for (const a of s.allOf ?? []) if (hasValidations(a, seen)) return true;
  return false;
}
