import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { ResourceHeader, SchemaFile, SchemaNode } from '../model/schema.js';
import type { TypeDef } from '../model/graph.js';
import { dependencyPackages, emitsTypes, ownerOf, ownKinds, type PackageContext } from './context.js';

type Json = Record<string, unknown>;

/** Where component schemas live in an OpenAPI v3 document; the server rewrites it for v2 (`#/definitions/`). */
export const COMPONENTS_PREFIX = '#/components/schemas/';

/** kube's definition name of a Protobuf message: `k8s.io.api.apps.v1.Deployment` → `io.k8s.api.apps.v1.Deployment`. */
export const openAPIName = (message: string): string =>
  message.startsWith('k8s.io.') ? `io.k8s.${message.slice('k8s.io.'.length)}` : message;

/**
 * meta.k8s.io types the REST paths of every group refer to (bodies and responses of delete, watch, discovery), so
 * a group document needs nothing but its own package's schemas.
 */
const META_FOR_PATHS = ['Status', 'DeleteOptions', 'WatchEvent', 'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions'];

/** meta types kube registers as kinds (in the core group, `v1`): they carry a GroupVersionKind in OpenAPI. */
const META_KINDS = new Set(['Status', 'DeleteOptions', 'WatchEvent', 'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions']);

const PATCH_DESCRIPTION = 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.';

/**
 * The schema files this package's OpenAPI document needs: its own closure, the meta types its paths use, and the
 * kinds its subresources accept (`autoscaling/v1` Scale, `policy/v1` Eviction) where the schema set has them.
 */
function openAPIFiles(ctx: PackageContext): SchemaFile[] {
  const { model } = ctx;
  // meta.k8s.io's schemas live in @kapi/apimachinery's document; groups merge it (mergeOpenAPI) with their own.
  if (ctx.isApimachinery) return [...model.set.files.values()].filter((f) => f.folder === 'meta');
  const kinds = ownKinds(ctx);
  if (!kinds.length) return ctx.files.filter((f) => emitsTypes(ctx, f));
  const all = [...model.set.files.values()];
  const extra = all.filter((f) => f.folder === 'meta' && (META_FOR_PATHS.includes(f.name) || f.name === 'ListMeta'));
  const kindFile = (group: string, version: string, kind: string) =>
    all.find((f) => f.name === kind && f.version === version && model.group(f.folder).group === group && f.schema['x-kapi-resource']);
  for (const file of kinds) {
    const h = file.schema['x-kapi-resource']!;
    const subs = h.subresources ?? {};
    const wanted: [string, string, string][] = [];
    if (subs.scale) wanted.push(['autoscaling', 'v1', 'Scale']);
    for (const other of subs.others ?? []) {
      if (other.kind) wanted.push([other.group ?? h.group, other.version ?? h.version, other.kind]);
    }
    for (const [group, version, kind] of wanted) {
      const found = kindFile(group, version, kind);
      if (found) extra.push(found);
    }
  }
  // Types of packages this one depends on come from their documents; the kinds of subresources it serves (Scale,
  // Eviction) that no dependency owns are written here, as kube's group documents carry them.
  const deps = new Set(dependencyPackages(ctx));
  return model
    .closure(ctx.folders, extra.filter((f) => f.folder !== 'meta').map((f) => f.id))
    .map((id) => model.set.files.get(id)!)
    .filter((f) => !deps.has(ownerOf(ctx, f)));
}

/** Types kube-openapi inlines where they are used instead of defining: `metav1.Duration` and named slices. */
const isInlined = (file: SchemaFile) => file.schema['x-kapi-wire-type'] === 'Duration' || file.schema.type === 'array';

const isExtension = (key: string) => key.startsWith('x-kubernetes-');

/** Keeps an object's keys sorted, as kube's Go encoder writes them, so output is stable whatever the input order. */
function sorted(obj: Json): Json {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

/** `$ref` alone, or wrapped in `allOf` when the use site adds a description, default or extension (kube's v3 form). */
function refTo(name: string, siblings: Json): Json {
  const ref = { $ref: COMPONENTS_PREFIX + name };
  return Object.keys(siblings).length ? sorted({ allOf: [ref], ...siblings }) : ref;
}

/** What a field says about itself beside a `$ref`: description, default and x-kubernetes-* keys. */
function useSite(node: SchemaNode): Json {
  const out: Json = {};
  if (node.description !== undefined) out.description = node.description;
  if (node.default !== undefined) out.default = node.default;
  for (const [k, v] of Object.entries(node)) if (isExtension(k)) out[k] = v;
  return out;
}

/**
 * Builds the OpenAPI v3 component schemas of a package: one per object type of its closure (file roots and inline
 * nested types, named after their Protobuf messages), `<Kind>List` per own kind, and meta's `Patch`.
 */
export function buildOpenAPI(ctx: PackageContext): { schemas: Record<string, Json> } {
  const { model } = ctx;
  const files = openAPIFiles(ctx);
  const schemas: Record<string, Json> = {};
  const nameOf = (def: TypeDef) => openAPIName(def.message);

  const convert = (file: SchemaFile, node: SchemaNode, def?: TypeDef): Json => {
    if (node.$ref) {
      const target = model.resolve(file, node.$ref);
      if (isInlined(target)) {
        const inner = convert(target, target.schema, undefined);
        return sorted({ ...inner, ...useSite(node) });
      }
      return refTo(nameOf(model.rootType(target)), useSite(node));
    }
    const nested = def ? undefined : model.nestedType(node);
    if (nested) {
      const site: Json = {};
      if (node.description !== undefined) site.description = node.description;
      if (node.default !== undefined) site.default = node.default;
      return refTo(nameOf(nested), site);
    }
    const out: Json = {};
    const isRoot = def?.node === file.schema;
    const wire = isRoot ? file.schema['x-kapi-wire-type'] : undefined;
    // An inline nested type's description is its field's: it is written where the field refers to the type only,
    // or clients that show both (kubectl explain) would print it twice.
    if (node.description !== undefined && (isRoot || !def)) out.description = node.description;
    if (isRoot && node.oneOf) {
      // A union (JSONSchemaPropsOrBool, ...): kube-openapi writes it without a type (its OpenAPISchemaType is nil).
      return sorted(out);
    }
    if (wire === 'IntOrString') {
      // kube: `format: int-or-string` with the two alternatives (OpenAPIV3OneOfTypes), no `type`.
      out.format = 'int-or-string';
      out.oneOf = [{ type: 'integer' }, { type: 'string' }];
      return sorted(out);
    }
    if (wire === 'Quantity') {
      out.oneOf = [{ type: 'string' }, { type: 'number' }];
      return sorted(out);
    }
    if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') {
      // An inline int-or-string field, written as a CustomResourceDefinition's structural schema writes it.
      out['x-kubernetes-int-or-string'] = true;
      out.anyOf = [{ type: 'integer' }, { type: 'string' }];
    } else {
      if (node.type !== undefined) out.type = node.type;
      if (node.format !== undefined) out.format = node.format;
      // An integer whose wire width is declared only for Protobuf still has kube's OpenAPI format (Go int32).
      const wireType = node['x-kapi-protobuf-type'];
      if (node.format === undefined && node.type === 'integer' && (wireType === 'int32' || wireType === 'int64')) out.format = wireType;
    }
    if (node.enum !== undefined) out.enum = node.enum;
    if (node.default !== undefined) out.default = node.default;
    if (node.required?.length) out.required = node.required;
    if (node.items) out.items = convert(file, node.items);
    if (node.properties) {
      out.properties = sorted(
        Object.fromEntries(Object.entries(node.properties).map(([prop, child]) => [prop, convert(file, child)])),
      );
    }
    if (typeof node.additionalProperties === 'object') out.additionalProperties = convert(file, node.additionalProperties);
    else if (node.additionalProperties === true) out.additionalProperties = true;
    for (const [k, v] of Object.entries(node)) if (isExtension(k) && k !== 'x-kubernetes-int-or-string') out[k] = v;
    return sorted(out);
  };

  const gvkOf = (file: SchemaFile): Json[] | undefined => {
    const h = file.schema['x-kapi-resource'];
    if (h) return [{ group: h.group, kind: h.kind, version: h.version }];
    if (file.folder === 'meta' && META_KINDS.has(file.name)) return [{ group: '', kind: file.name, version: 'v1' }];
    return undefined;
  };

  for (const file of files) {
    if (isInlined(file)) continue;
    for (const def of model.types(file)) {
      const schema = convert(file, def.node, def);
      const gvk = def.node === file.schema ? gvkOf(file) : undefined;
      schemas[nameOf(def)] = gvk ? sorted({ ...schema, 'x-kubernetes-group-version-kind': gvk }) : schema;
    }
  }

  const listMeta = [...model.set.files.values()].find((f) => f.folder === 'meta' && f.name === 'ListMeta');
  for (const file of ownKinds(ctx)) {
    const h = file.schema['x-kapi-resource']!;
    const name = nameOf(model.rootType(file));
    schemas[listName(name, h)] = listSchema(name, h, listMeta ? nameOf(model.rootType(listMeta)) : undefined);
  }
  if (ctx.isApimachinery) {
    schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Patch'] = { description: PATCH_DESCRIPTION, type: 'object' };
  }
  return { schemas: sorted(schemas) as Record<string, Json> };
}

function listName(kindName: string, h: ResourceHeader): string {
  return `${kindName.slice(0, kindName.lastIndexOf('.') + 1)}${h.listKind ?? `${h.kind}List`}`;
}

const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** The `<Kind>List` kube registers beside every kind: TypeMeta, ListMeta and the items. */
function listSchema(kindName: string, h: ResourceHeader, listMetaName: string | undefined): Json {
  const listKind = h.listKind ?? `${h.kind}List`;
  const properties: Json = {
    apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
    items: { description: `items is the list of ${h.kind}.`, items: { $ref: COMPONENTS_PREFIX + kindName }, type: 'array' },
    kind: { description: KIND_DESCRIPTION, type: 'string' },
  };
  if (listMetaName) {
    properties.metadata = refTo(listMetaName, {
      description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    });
  }
  return {
    description: `${listKind} is a list of ${h.kind} objects.`,
    properties: sorted(properties),
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': [{ group: h.group, kind: listKind, version: h.version }],
  };
}

/** `src/generated/openapi.ts` of a group package (apimachinery's meta types reach servers through the groups). */
export function emitOpenAPI(ctx: PackageContext): OutputFile {
  return {
    path: `${ctx.directory}/src/generated/openapi.ts`,
    content:
      `${GENERATED_HEADER}\nimport type { GroupOpenAPI } from '${ctx.isApimachinery ? '../registry/group.js' : '@kapi/apimachinery'}';\n\n` +
      `/**\n * OpenAPI v3 component schemas of this package's own types, named as kube names them\n` +
      ` * (\`io.k8s.api.apps.v1.Deployment\`); references point into \`#/components/schemas/\`.\n */\n` +
      `export const openapi: GroupOpenAPI = ${JSON.stringify(buildOpenAPI(ctx), null, 1)};\n`,
  };
}
