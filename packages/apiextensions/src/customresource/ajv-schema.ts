import { itemsOf, type JSONSchemaProps } from '../schema.js';

/** The keyword a `pattern` becomes: matched with RE2 (linear time, Go's syntax) rather than ajv's RegExp. */
export const RE2_PATTERN = 'x-kapi-re2-pattern';

/**
 * The JSON Schema (draft-07, as ajv reads it) that checks what kube's OpenAPI validator checks of a custom resource:
 * OpenAPI v3.0's `nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum`, kube's `x-kubernetes-int-or-string`,
 * and nothing of what only describes (`description`, `default`, `example`, the other `x-kubernetes-*`). At the root,
 * `metadata` keeps only the constraints a CRD may put on `name` and `generateName`; the rest of ObjectMeta is
 * validated as for every kind.
 */
export function toAjvSchema(node: JSONSchemaProps, root = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node['x-kubernetes-int-or-string']) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  else if (node.type) out.type = node.nullable ? [node.type, 'null'] : node.type;
  // Patterns are Go RE2 expressions, matched by the validator's own keyword (validator.ts), never by a RegExp.
  if (node.pattern !== undefined) out[RE2_PATTERN] = node.pattern;
  for (const key of ['format', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required'] as const) {
    if (node[key] !== undefined) out[key] = node[key];
  }
  if (node.enum) out.enum = node.nullable ? [...node.enum, null] : node.enum;
  if (node.minimum !== undefined) out[node.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = node.minimum;
  if (node.maximum !== undefined) out[node.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = node.maximum;
  if (node.properties) {
    const props: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node.properties)) {
      props[name] = root && name === 'metadata' ? metadataSchema(child) : toAjvSchema(child, false);
    }
    out.properties = props;
  }
  if (typeof node.additionalProperties === 'object') out.additionalProperties = toAjvSchema(node.additionalProperties, false);
  else if (node.additionalProperties === false) out.additionalProperties = false;
  const items = itemsOf(node);
  if (items) out.items = toAjvSchema(items, false);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (!list) continue;
    const converted = list.map((s) => toAjvSchema(s, false));
    // int-or-string already took `anyOf`: both must hold.
    if (out[key]) out.allOf = [...((out.allOf as unknown[]) ?? []), { [key]: converted }];
    else out[key] = converted;
  }
  if (node.not) out.not = toAjvSchema(node.not, false);
  return out;
}

/** `metadata` at the root: only what a CRD may say of `name` and `generateName` (kube allows nothing else there). */
function metadataSchema(node: JSONSchemaProps): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of ['name', 'generateName']) {
    const child = node.properties?.[name];
    if (child) props[name] = toAjvSchema(child, false);
  }
  return Object.keys(props).length ? { type: 'object', properties: props } : { type: 'object' };
}
