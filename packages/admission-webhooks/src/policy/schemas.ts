// The schema of a served kind as CEL type checking reads it: the kind's OpenAPI v3 component with its $refs inlined.
import type { StructuralSchema } from '@kapi/cel';
import type { ResourceEntry } from '@kapi/apiserver';

const REF = '#/components/schemas/';
/** Deeper than any built-in kind nests; a recursive type (JSONSchemaProps) stops here as an untyped value. */
const MAX_DEPTH = 24;
const UNTYPED: StructuralSchema = { 'x-kubernetes-preserve-unknown-fields': true };

type Node = Record<string, unknown>;

/**
 * The structural schema of an entry's kind (kube's type checker uses the kind's OpenAPI schema): found by its
 * `x-kubernetes-group-version-kind`, `$ref`s and single-`allOf` wrappers resolved, `type: object` where properties
 * are given. Undefined when the group carries no OpenAPI schemas.
 */
export function structuralSchemaOf(entry: ResourceEntry): StructuralSchema | undefined {
  const schemas = entry.group.openapi?.schemas as Record<string, Node> | undefined;
  if (!schemas) return undefined;
  const { group, version, kind } = entry.info;
  const root = Object.values(schemas).find((s) =>
    ((s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined) ?? []).some(
      (g) => g.group === group && g.version === version && g.kind === kind,
    ),
  );
  if (!root) return undefined;
  const resolve = (node: Node, depth: number, seen: ReadonlySet<string>): StructuralSchema => {
    if (depth > MAX_DEPTH) return UNTYPED;
    const ref = typeof node.$ref === 'string' ? node.$ref : (node.allOf as Node[] | undefined)?.length === 1 ? ((node.allOf as Node[])[0].$ref as string | undefined) : undefined;
    if (ref?.startsWith(REF)) {
      const name = ref.slice(REF.length);
      const target = schemas[name];
      if (!target || seen.has(name)) return UNTYPED;
      const { allOf: _allOf, $ref: _ref, ...rest } = node;
      return resolve({ ...target, ...rest }, depth + 1, new Set([...seen, name]));
    }
    const out: StructuralSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' || key === 'allOf' || key === 'x-kubernetes-group-version-kind') continue;
      if (key === 'properties') {
        out.properties = Object.fromEntries(Object.entries(value as Record<string, Node>).map(([k, v]) => [k, resolve(v, depth + 1, seen)]));
      } else if (key === 'items') out.items = resolve(value as Node, depth + 1, seen);
      else if (key === 'additionalProperties' && value && typeof value === 'object') out.additionalProperties = resolve(value as Node, depth + 1, seen);
      else out[key] = value;
    }
    if (!out.type && out.properties) out.type = 'object';
    return out;
  };
  return resolve(root, 0, new Set());
}
