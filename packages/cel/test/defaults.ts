// Structural schema defaulting as kube applies it before validation (apiextensions-apiserver
// pkg/apiserver/schema/defaulting), enough for the Gateway API examples: absent properties with a `default` get it,
// then defaulting goes on inside.
type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  default?: unknown;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies schema defaults to `value` in place and returns it. */
export function applyDefaults<T>(schema: Schema | undefined, value: T): T {
  if (!schema) return value;
  if (Array.isArray(value)) {
    for (const item of value) applyDefaults(schema.items, item);
  } else if (isObject(value)) {
    const obj: Record<string, unknown> = value;
    for (const [k, p] of Object.entries(schema.properties ?? {})) {
      if (!(k in obj) && p.default !== undefined) obj[k] = structuredClone(p.default);
      if (k in obj) applyDefaults(p, obj[k]);
    }
    const ap = schema.additionalProperties;
    if (ap && typeof ap === 'object') for (const v of Object.values(obj)) applyDefaults(ap, v);
  }
  return value;
}
