import type { Model } from './graph.js';
import type { SchemaFile, SchemaNode } from './schema.js';

/** The JSON type of a union alternative, which is also the name of its Protobuf field (schemas/README.md). */
export type OneOfKind = 'boolean' | 'object' | 'array';

export interface OneOfAlternative {
  kind: OneOfKind;
  node: SchemaNode;
}

/**
 * The alternatives of a union (`oneOf` at a schema root), with the JSON type each one takes: a `boolean`, an
 * `object` (a `$ref` to an object type, or a map) or an `array` (inline `type: array`, carried by a repeated field).
 * A union is told apart by JSON type only, so no two alternatives may share one.
 */
export function oneOfAlternatives(model: Model, file: SchemaFile, node: SchemaNode = file.schema): OneOfAlternative[] {
  const where = `schemas/${file.id}.json`;
  const seen = new Set<OneOfKind>();
  return (node.oneOf ?? []).map((alt, i) => {
    const target = alt.$ref ? model.resolve(file, alt.$ref).schema : alt;
    let kind: OneOfKind | undefined;
    if (target['x-kapi-wire-type'] || target.oneOf) kind = undefined;
    else if (target.type === 'boolean') kind = 'boolean';
    else if (target.type === 'object') kind = 'object';
    else if (target.type === 'array' && !alt.$ref) kind = 'array';
    if (!kind) throw new Error(`${where}: oneOf[${i}] is not a boolean, an object type or an inline array`);
    if (seen.has(kind)) throw new Error(`${where}: two oneOf alternatives are ${kind === 'array' ? 'arrays' : `${kind}s`}`);
    if (alt['x-kapi-field-number'] === undefined) throw new Error(`${where}: oneOf[${i}] has no x-kapi-field-number`);
    seen.add(kind);
    return { kind, node: alt };
  });
}
