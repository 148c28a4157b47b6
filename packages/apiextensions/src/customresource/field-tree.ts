import type { FieldPatchMeta, FieldShape, FieldTree } from '@kapi/apimachinery';
import { itemsOf, valuesOf, type JSONSchemaProps } from '../schema.js';

/** kube's ObjectMeta in the field trees every group shares. */
const OBJECT_META = 'meta.k8s.io/v1/ObjectMeta';

/**
 * What the server needs of a custom resource's structural schema beyond validation: the known fields, defaults
 * and nullable fields of each object (for pruning unknown fields and defaulting, as kube does for custom resources) as a
 * FieldTree under `typeKey`, and the list and map semantics server-side apply merges by (patchMeta, by dotted path
 * from the root; list elements and map values add no segment).
 */
export function customResourceShape(typeKey: string, schema: JSONSchemaProps): { fieldTree: FieldTree; patchMeta: Record<string, FieldPatchMeta> } {
  const types: FieldTree['types'] = {};
  const patchMeta: Record<string, FieldPatchMeta> = {};

  const shapeOf = (node: JSONSchemaProps, name: string, path: string): FieldShape => {
    const meta: FieldPatchMeta = {};
    if (node['x-kubernetes-list-type']) meta.listType = node['x-kubernetes-list-type'];
    if (node['x-kubernetes-list-map-keys']) meta.listMapKeys = node['x-kubernetes-list-map-keys'];
    if (node['x-kubernetes-map-type']) meta.mapType = node['x-kubernetes-map-type'];
    if (Object.keys(meta).length) patchMeta[path] = meta;

    if (node['x-kubernetes-int-or-string']) return 0;
    if (node.type === 'array') {
      const items = itemsOf(node);
      return { a: items ? shapeOf(items, `${name}[]`, path) : '*' };
    }
    if (node.type === 'object' || node.properties || node['x-kubernetes-embedded-resource']) {
      const values = valuesOf(node);
      if (values && !node.properties) return { m: shapeOf(values, `${name}{}`, path) };
      if (!node.properties && node['x-kubernetes-preserve-unknown-fields'] && !node['x-kubernetes-embedded-resource']) return '*';
      if (!node.properties && node.additionalProperties === true) return '*';
      return objectType(node, name, path);
    }
    // A node with no type keeps whatever it holds when unknown fields are preserved there.
    if (!node.type && node['x-kubernetes-preserve-unknown-fields']) return '*';
    return 0;
  };

  const objectType = (node: JSONSchemaProps, name: string, path: string, root = false): string => {
    const props: Record<string, FieldShape> = {};
    const defaults: Record<string, unknown> = {};
    const nullable: string[] = [];
    if (root || node['x-kubernetes-embedded-resource']) Object.assign(props, { apiVersion: 0, kind: 0, metadata: OBJECT_META });
    for (const key of Object.keys(node.properties ?? {}).sort()) {
      if ((root || node['x-kubernetes-embedded-resource']) && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) continue;
      const child = node.properties![key];
      props[key] = shapeOf(child, `${name}.${key}`, path ? `${path}.${key}` : key);
      if (child.default !== undefined) defaults[key] = child.default;
      if (child.nullable) nullable.push(key);
    }
    types[name] = {
      props,
      ...(Object.keys(defaults).length ? { defaults } : {}),
      ...(nullable.length ? { nullable } : {}),
      ...(node['x-kubernetes-preserve-unknown-fields'] ? { preserveUnknown: true } : {}),
      ...(node['x-kubernetes-embedded-resource'] ? { embeddedResource: true } : {}),
    };
    return name;
  };

  objectType(schema, typeKey, '', true);
  return { fieldTree: { types }, patchMeta };
}
