import type { ProtoDescriptor } from '../wire/types.js';
import type { GroupOpenAPI } from '../registry/group.js';
import type { FieldTree } from './types.js';

/**
 * One descriptor from several packages' (protobufjs JSON namespaces merged by name): a group package's own
 * messages with those of the packages whose types it uses, so its codec resolves every reference. Each package
 * generates only its own messages; a group's definition composes them once, at load.
 */
export function mergeDescriptors(descriptors: readonly ProtoDescriptor[]): ProtoDescriptor {
  const merge = (into: Record<string, any>, from: Record<string, any>) => {
    for (const [key, value] of Object.entries(from)) {
      if (key === 'nested' && into.nested) {
        for (const [name, child] of Object.entries(value as Record<string, any>)) {
          if (into.nested[name] && into.nested[name].nested && child.nested) merge(into.nested[name], child);
          else into.nested[name] ??= child;
        }
      } else {
        into[key] ??= value;
      }
    }
  };
  const out: Record<string, any> = {};
  for (const d of descriptors) merge(out, structuredClone(d) as Record<string, any>);
  return out as ProtoDescriptor;
}

/** One field tree from several packages' (types are keyed by `<apiVersion>/<Name>`, unique across packages). */
export function mergeFieldTrees(trees: readonly FieldTree[]): FieldTree {
  const types: FieldTree['types'] = {};
  for (const tree of trees) for (const [key, shape] of Object.entries(tree.types)) types[key] ??= shape;
  return { types };
}

/** One OpenAPI schema set from several packages' (names are kube's, unique across packages: the first one wins). */
export function mergeOpenAPI(documents: readonly GroupOpenAPI[]): GroupOpenAPI {
  const schemas: GroupOpenAPI['schemas'] = {};
  for (const doc of documents) for (const [name, schema] of Object.entries(doc.schemas)) schemas[name] ??= schema;
  return { schemas: Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]])) };
}
