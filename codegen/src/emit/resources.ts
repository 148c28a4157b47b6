import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { ResourceHeader, SchemaFile, SchemaNode } from '../model/schema.js';
import { ownKinds, type PackageContext } from './context.js';

type PatchMeta = Record<string, unknown>;

const PATCH_KEYS: [keyof SchemaNode, string][] = [
  ['x-kubernetes-patch-strategy', 'patchStrategy'],
  ['x-kubernetes-patch-merge-key', 'patchMergeKey'],
  ['x-kubernetes-list-type', 'listType'],
  ['x-kubernetes-list-map-keys', 'listMapKeys'],
  ['x-kubernetes-map-type', 'mapType'],
];

/** Patch metadata of every field below a kind, by dotted path (list elements add no segment). */
function patchMetaOf(ctx: PackageContext, kind: SchemaFile): Record<string, PatchMeta> {
  const out: Record<string, PatchMeta> = {};
  const walk = (file: SchemaFile, node: SchemaNode, path: string, stack: string[]) => {
    if (path) {
      const meta: PatchMeta = {};
      for (const [key, name] of PATCH_KEYS) if (node[key] !== undefined) meta[name] = node[key];
      if (Object.keys(meta).length) out[path] = { ...out[path], ...meta };
    }
    if (node.$ref) {
      const target = ctx.model.resolve(file, node.$ref);
      if (stack.includes(target.id)) return;
      walk(target, target.schema, path, [...stack, target.id]);
      return;
    }
    for (const alt of node.oneOf ?? []) walk(file, alt, path, stack);
    if (node.items) walk(file, node.items, path, stack);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      walk(file, node.additionalProperties, path, stack);
    }
    for (const [prop, child] of Object.entries(node.properties ?? {})) {
      walk(file, child, path ? `${path}.${prop}` : prop, stack);
    }
  };
  walk(kind, kind.schema, '', [kind.id]);
  return out;
}

type Deprecation = NonNullable<ResourceHeader['deprecated']>;

/**
 * The warning every request to a deprecated version gets: its own text, or kube's (k8s.io/apiserver's
 * deprecation.WarningMessage: `<apiVersion> <Kind> is deprecated in v1.25+, unavailable in v1.29+; use <apiVersion>
 * <Kind>`, each release part only when given, as a CRD's default text has none).
 */
function deprecationWarning(apiVersion: string, kind: string, deprecated: Deprecation): string {
  if (deprecated.warning) return deprecated.warning;
  let text = `${apiVersion} ${kind} is deprecated`;
  if (deprecated.in) text += ` in v${deprecated.in}+`;
  if (deprecated.removedIn) text += `${deprecated.in ? ',' : ''} unavailable in v${deprecated.removedIn}+`;
  return deprecated.replacement ? `${text}; use ${deprecated.replacement}` : text;
}

/** The resource registry: one ResourceInfo per kind the package serves. */
export function buildResources(ctx: PackageContext): unknown[] {
  return ownKinds(ctx).map((file) => {
    const h = file.schema['x-kapi-resource']!;
    const message = ctx.model.rootType(file).message;
    return {
      group: h.group,
      version: h.version,
      kind: h.kind,
      listKind: h.listKind ?? `${h.kind}List`,
      plural: h.plural,
      singular: h.singular,
      scope: h.scope,
      shortNames: h.shortNames ?? [],
      categories: h.categories ?? [],
      ...(h.nameValidation ? { nameValidation: h.nameValidation } : {}),
      ...(h.allowCreateOnUpdate !== undefined ? { allowCreateOnUpdate: h.allowCreateOnUpdate } : {}),
      ...(h.allowUnconditionalUpdate !== undefined ? { allowUnconditionalUpdate: h.allowUnconditionalUpdate } : {}),
      ...(h.deprecated ? { deprecationWarning: deprecationWarning(ctx.model.groupVersion(file), h.kind, h.deprecated) } : {}),
      ...(h.deprecated?.removedIn ? { removedRelease: h.deprecated.removedIn } : {}),
      verbs: h.verbs,
      subresources: h.subresources ?? {},
      printerColumns: h.printerColumns ?? [],
      protobuf: { message, listMessage: `${message}List` },
      patchMeta: patchMetaOf(ctx, file),
    };
  });
}

export function emitResources(ctx: PackageContext): OutputFile {
  const importFrom = ctx.isApimachinery ? '../registry/types.js' : '@kapi/apimachinery';
  return {
    path: `${ctx.directory}/src/generated/resources.ts`,
    content:
      `${GENERATED_HEADER}\nimport type { ResourceInfo } from '${importFrom}';\n\n` +
      `/** The resources this package serves, generated from the schemas' resource headers. */\n` +
      `export const resources: ResourceInfo[] = ${JSON.stringify(buildResources(ctx), null, 1)};\n`,
  };
}
