import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { SchemaFile, SchemaNode } from '../model/schema.js';
import { emitsTypes, type PackageContext } from './context.js';

type Shape = 0 | '*' | string | { a: Shape } | { m: Shape } | { u: Shape[] };
interface TypeShape {
  props: Record<string, Shape>;
  /** Schema `default` values of properties, applied when a property is absent. */
  defaults?: Record<string, unknown>;
  /** Properties whose zero value means unset (Go non-pointer scalars tagged omitempty). */
  omitZero?: string[];
  /**
   * Go's zero values of the required scalar properties (Go fields without omitempty): what kube's decoding leaves
   * in a property its request left out, and writes back.
   */
  zeros?: Record<string, 0 | false | ''>;
  /** Properties holding a metav1.Time or MicroTime, by which. */
  times?: Record<string, 'Time' | 'MicroTime'>;
  /** Properties holding a resource.Quantity (`value`) or a map of them (`map`). */
  quantities?: Record<string, 'value' | 'map'>;
  preserveUnknown?: boolean;
  embeddedResource?: boolean;
}

/**
 * The known fields of every object type of the package's own folders (others' come from their packages when the
 * group is loaded: mergeFieldTrees), keyed like validators
 * (`apps/v1/Deployment`, nested types `wardle.example.com/v1alpha1/Flunder.Spec`), for finding and pruning
 * unknown fields.
 */
export function buildFieldTree(ctx: PackageContext): { types: Record<string, TypeShape> } {
  const { model } = ctx;
  const types: Record<string, TypeShape> = {};

  const shapeOf = (file: SchemaFile, node: SchemaNode): Shape => {
    if (node.$ref) {
      const target = model.resolve(file, node.$ref);
      if (target.schema.properties) return model.rootType(target).key;
      return shapeOf(target, { ...target.schema, properties: undefined });
    }
    if (node.oneOf) {
      // A union: the shapes of its alternatives that are walked (objects, arrays), told apart by JSON type.
      const shapes = node.oneOf.map((alt) => shapeOf(file, alt)).filter((s) => s !== 0);
      return shapes.length === 0 ? 0 : shapes.length === 1 ? shapes[0] : { u: shapes };
    }
    const wire = node['x-kapi-wire-type'];
    if (wire === 'RawExtension' || wire === 'FieldsV1' || wire === 'JSON') return '*';
    if (node.type === 'array') return node.items ? { a: shapeOf(file, node.items) } : '*';
    const nested = model.nestedType(node);
    if (nested) return nested.key;
    if (node.type === 'object' || node['x-kubernetes-preserve-unknown-fields']) {
      if (node.additionalProperties && typeof node.additionalProperties === 'object') {
        return { m: shapeOf(file, node.additionalProperties) };
      }
      return '*';
    }
    return 0;
  };

  for (const file of ctx.files.filter((f) => emitsTypes(ctx, f))) {
    for (const def of model.types(file)) {
      if (!def.node.properties) continue;
      const shape: TypeShape = {
        props: Object.fromEntries(Object.entries(def.node.properties).map(([k, v]) => [k, shapeOf(file, v)])),
      };
      const defaults = Object.entries(def.node.properties).filter(([, v]) => v.default !== undefined);
      if (defaults.length) shape.defaults = Object.fromEntries(defaults.map(([k, v]) => [k, v.default]));
      const omitZero = Object.entries(def.node.properties).filter(([, v]) => v['x-kapi-omit-zero']).map(([k]) => k);
      if (omitZero.length) shape.omitZero = omitZero;
      const zeroOf = (node: SchemaNode | undefined): 0 | false | '' | undefined => {
        if (!node || node.$ref || node['x-kapi-wire-type'] || node.oneOf) return undefined;
        if (node.type === 'integer' || node.type === 'number') return 0;
        if (node.type === 'boolean') return false;
        if (node.type === 'string') return '';
        return undefined;
      };
      const zeros = (def.node.required ?? []).flatMap((k) => {
        const zero = zeroOf(def.node.properties?.[k]);
        return zero === undefined ? [] : [[k, zero] as const];
      });
      if (zeros.length) shape.zeros = Object.fromEntries(zeros);
      const times = Object.entries(def.node.properties).flatMap(([k, v]) => {
        const wire = v.$ref ? model.resolve(file, v.$ref).schema['x-kapi-wire-type'] : undefined;
        return wire === 'Time' || wire === 'MicroTime' ? [[k, wire] as const] : [];
      });
      if (times.length) shape.times = Object.fromEntries(times);
      const isQuantity = (node: SchemaNode | undefined) => !!node?.$ref && model.resolve(file, node.$ref).schema['x-kapi-wire-type'] === 'Quantity';
      const quantities = Object.entries(def.node.properties).flatMap(([k, v]): [string, 'value' | 'map'][] => {
        if (isQuantity(v)) return [[k, 'value']];
        const values = typeof v.additionalProperties === 'object' ? v.additionalProperties : undefined;
        return isQuantity(values) ? [[k, 'map']] : [];
      });
      if (quantities.length) shape.quantities = Object.fromEntries(quantities);
      if (def.node['x-kubernetes-preserve-unknown-fields']) shape.preserveUnknown = true;
      if (def.node['x-kubernetes-embedded-resource']) shape.embeddedResource = true;
      types[def.key] = shape;
    }
  }
  return { types: Object.fromEntries(Object.keys(types).sort().map((k) => [k, types[k]])) };
}

export function emitFieldTree(ctx: PackageContext): OutputFile {
  const importFrom = ctx.isApimachinery ? '../validation/types.js' : '@kapi/apimachinery';
  return {
    path: `${ctx.directory}/src/generated/field-tree.ts`,
    content:
      `${GENERATED_HEADER}\nimport type { FieldTree } from '${importFrom}';\n\n` +
      `/** Known fields of this package's own object types, for unknown-field detection and pruning. */\n` +
      `export const fieldTree: FieldTree = ${JSON.stringify(buildFieldTree(ctx), null, 1)};\n`,
  };
}
