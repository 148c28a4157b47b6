import type { KapiSchema } from './types.js';

/** Key order of a schema node: these, then `x-kubernetes-*` keys sorted, then the trailing ones (`properties` and `oneOf` last). */
const LEADING = [
  '$ref', 'description', 'type', 'format', 'enum', 'default',
  'x-kapi-wire-type', 'x-kapi-protobuf', 'x-kapi-resource',
  'required', 'items', 'additionalProperties',
];
const TRAILING = ['x-kapi-omit-zero', 'x-kapi-protobuf-type', 'x-kapi-field-number', 'properties', 'oneOf'];

function rank(key: string): [number, string] {
  const lead = LEADING.indexOf(key);
  if (lead >= 0) return [lead, ''];
  const trail = TRAILING.indexOf(key);
  if (trail >= 0) return [LEADING.length + 2 + trail, ''];
  return [LEADING.length + (key.startsWith('x-kubernetes-') ? 0 : 1), key];
}

/**
 * Puts a schema node's keys in the canonical order, recursively through `properties`, `items`,
 * `additionalProperties` and `oneOf`. Property order itself is meaningful (Go struct order) and kept; the values of
 * `x-kapi-*` objects are built in their documented order and kept too.
 */
export function canonicalSchema(node: KapiSchema): KapiSchema {
  const keys = Object.keys(node).sort((a, b) => {
    const [ra, ka] = rank(a);
    const [rb, kb] = rank(b);
    return ra - rb || (ka < kb ? -1 : ka > kb ? 1 : 0);
  });
  const out: KapiSchema = {};
  for (const key of keys) {
    const value = node[key];
    if (key === 'properties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, KapiSchema>).map(([name, child]) => [name, canonicalSchema(child)]),
      );
    } else if (key === 'oneOf' && Array.isArray(value)) {
      out[key] = (value as KapiSchema[]).map(canonicalSchema);
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = canonicalSchema(value as KapiSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The bytes of a JSON file: two-space indent and a trailing newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
