import type { Model } from './graph.js';
import type { SchemaFile, SchemaNode } from './schema.js';

/** How one version's value becomes another's: the runtime's ConversionPlan (@kapi/apimachinery). */
export type Plan = 1 | { props: Record<string, Plan>; preserve?: string[]; manual?: string[] } | { items: Plan } | { values: Plan };

/** Both directions between two versions of a kind, A (a served version) and B (the storage version). */
export interface VersionPair {
  aToB: Plan;
  bToA: Plan;
  /** Fields (paths from the object root) marked `manual`, on each side: the group's hook converts them. */
  manualA: string[];
  manualB: string[];
  /** One message per unmarked field without counterpart. */
  errors: string[];
}

interface Side {
  file: SchemaFile;
  node: SchemaNode;
  /** The schema file's id when the node is a file root (reached through a `$ref`). */
  id?: string;
}

/** What a value is, for matching: two values convert automatically only when this agrees (objects aside). */
function shapeOf(node: SchemaNode): string {
  if (node.oneOf) return 'union';
  if (node['x-kapi-wire-type']) return `wire:${node['x-kapi-wire-type']}`;
  if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') return 'int-or-string';
  if (node.type === 'array') return 'array';
  if (node.properties) return 'object';
  if (node.type === 'object' && typeof node.additionalProperties === 'object') return 'map';
  if (node.type === 'object' || node.type === undefined) return 'free';
  return `${node.type}:${node.format ?? ''}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Matches two versions of a kind as Go's conversion-gen does: a field converts automatically when both versions
 * have a property of its name and shape (same scalar type and format, lists and maps of matching elements, objects
 * field by field; a `$ref` to the very same file is copied whole). Fields without counterpart must be marked
 * `x-kapi-conversion` (`manual` or `preserve`); each unmarked one is an error.
 */
export function matchVersions(model: Model, a: SchemaFile, b: SchemaFile, describe: { a: string; b: string }): VersionPair {
  const out: VersionPair = { aToB: 1, bToA: 1, manualA: [], manualB: [], errors: [] };
  const pairs: string[] = [];

  const deref = (side: Side): Side => {
    if (!side.node.$ref) return side;
    const target = model.resolve(side.file, side.node.$ref);
    return { file: target, node: target.schema, id: target.id };
  };

  const unmatched = (side: Side, prop: string, path: string, other: string, manual: string[], level: { preserve: string[]; manual: string[] }) => {
    const mark = side.node.properties![prop]['x-kapi-conversion'];
    if (mark === 'preserve') level.preserve.push(prop);
    else if (mark === 'manual') {
      manual.push(path);
      level.manual.push(prop);
    }
    else {
      out.errors.push(
        `schemas/${side.file.id}.json: ${path} has no counterpart in ${other}; ` +
          `mark it "x-kapi-conversion": "manual" (converted by the group's hook) or "preserve"`,
      );
    }
  };

  const matchObjects = (sa: Side, sb: Side, path: string): { ab: Plan; ba: Plan } => {
    const pair = `${sa.id ?? ''}|${sb.id ?? ''}`;
    if (sa.id && sb.id && pairs.includes(pair)) {
      throw new Error(`schemas/${sa.file.id}.json and schemas/${sb.file.id}.json refer to themselves: converting recursive types that differ between versions is not supported`);
    }
    pairs.push(pair);
    const propsA = sa.node.properties ?? {};
    const propsB = sb.node.properties ?? {};
    const ab: Record<string, Plan> = {};
    const ba: Record<string, Plan> = {};
    const levelA = { preserve: [] as string[], manual: [] as string[] };
    const levelB = { preserve: [] as string[], manual: [] as string[] };
    const at = (prop: string) => (path ? `${path}.${prop}` : prop);
    for (const [prop, child] of Object.entries(propsA)) {
      const twin = propsB[prop];
      const m = twin && match({ file: sa.file, node: child }, { file: sb.file, node: twin }, at(prop));
      if (m) {
        ab[prop] = m.ab;
        ba[prop] = m.ba;
      } else unmatched(sa, prop, at(prop), describe.b, out.manualA, levelA);
    }
    for (const prop of Object.keys(propsB)) {
      if (!(prop in ab)) unmatched(sb, prop, at(prop), describe.a, out.manualB, levelB);
    }
    pairs.pop();
    const names = Object.keys(ab);
    const whole = names.length === Object.keys(propsA).length && names.length === Object.keys(propsB).length;
    if (whole && names.every((n) => ab[n] === 1 && ba[n] === 1)) return { ab: 1, ba: 1 };
    // Each plan names its source's fields without counterpart at this level: what a conversion back may restore.
    const plan = (props: Record<string, Plan>, level: { preserve: string[]; manual: string[] }): Plan => ({
      props,
      ...(level.preserve.length ? { preserve: level.preserve } : {}),
      ...(level.manual.length ? { manual: level.manual } : {}),
    });
    return { ab: plan(ab, levelA), ba: plan(ba, levelB) };
  };

  const match = (rawA: Side, rawB: Side, path: string): { ab: Plan; ba: Plan } | undefined => {
    const sa = deref(rawA);
    const sb = deref(rawB);
    if (sa.id && sa.id === sb.id) return { ab: 1, ba: 1 };
    const shape = shapeOf(sa.node);
    if (shape !== shapeOf(sb.node) || shape === 'union') return undefined;
    const inner = (key: 'items' | 'additionalProperties', suffix: string, wrap: (p: Plan) => Plan) => {
      const m = match({ file: sa.file, node: sa.node[key] as SchemaNode }, { file: sb.file, node: sb.node[key] as SchemaNode }, path + suffix);
      return m && { ab: m.ab === 1 ? 1 : wrap(m.ab), ba: m.ba === 1 ? 1 : wrap(m.ba) };
    };
    if (shape === 'array') return sa.node.items && sb.node.items ? inner('items', '[]', (items) => ({ items })) : { ab: 1, ba: 1 };
    if (shape === 'map') return inner('additionalProperties', '[*]', (values) => ({ values }));
    if (shape === 'object') return matchObjects(sa, sb, path);
    return { ab: 1, ba: 1 };
  };

  const root = matchObjects({ file: a, node: a.schema, id: a.id }, { file: b, node: b.schema, id: b.id }, '');
  out.aToB = root.ab;
  out.bToA = root.ba;
  return out;
}

/** The hook member converting a kind from one version to another: `toV1beta1FromV1alpha1`. */
export const hookName = (from: string, to: string): string => `to${cap(to)}From${cap(from)}`;
