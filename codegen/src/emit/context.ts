import type { Model } from '../model/graph.js';
import type { SchemaFile } from '../model/schema.js';

/** What one package's emitters share: the model, the package's folders, and its closure of schema files. */
export interface PackageContext {
  model: Model;
  packageName: string;
  directory: string;
  /** Folders this package owns (its types are exported). */
  folders: string[];
  /** Every schema file this package needs, own and referenced, by id, sorted. */
  files: SchemaFile[];
  /** True for @kapi/apimachinery itself, which imports its runtime relatively. */
  isApimachinery: boolean;
}

export const APIMACHINERY = '@kapi/apimachinery';

export function packageContext(model: Model, folder: string): PackageContext {
  const g = model.group(folder);
  const folders = model.packageFolders(folder);
  const servesKinds = [...model.set.files.values()].some((f) => folders.includes(f.folder) && f.schema['x-kapi-resource']);
  // Every kind has a <Kind>List message, so a package serving kinds needs ListMeta even when no schema names it.
  const extra = servesKinds ? [...model.set.files.values()].filter((f) => f.folder === 'meta' && f.name === 'ListMeta').map((f) => f.id) : [];
  return {
    model,
    packageName: g.packageName,
    directory: g.directory,
    folders,
    files: model.closure(folders, extra).map((id) => model.set.files.get(id)!),
    isApimachinery: g.packageName === APIMACHINERY,
  };
}

export function isOwn(ctx: PackageContext, file: SchemaFile): boolean {
  return ctx.folders.includes(file.folder);
}

/**
 * Whether a file's types, validators, descriptors and field tree are emitted in this package: only its own
 * folders'. Everything else is imported from the package that owns it (kubernetes-models-ts's rule), so a type
 * is generated once, in one package.
 */
export function emitsTypes(ctx: PackageContext, file: SchemaFile): boolean {
  return ctx.isApimachinery || isOwn(ctx, file);
}

/** The package that owns a schema file (`@kapi/apimachinery` for meta, `@kapi/api-core` for core, ...). */
export function ownerOf(ctx: PackageContext, file: SchemaFile): string {
  return ctx.model.group(file.folder).packageName;
}

/**
 * The other packages this package's schemas refer to, sorted: its dependencies. `@kapi/apimachinery` is always
 * one (the runtime). A package that would depend on itself through another one is a cycle: an error naming it.
 */
export function dependencyPackages(ctx: PackageContext): string[] {
  const deps = new Set<string>([APIMACHINERY]);
  for (const file of ctx.files) if (!emitsTypes(ctx, file)) deps.add(ownerOf(ctx, file));
  deps.delete(ctx.packageName);
  return [...deps].sort();
}

/** The other group packages (not apimachinery) this package's schemas refer to, sorted. */
export function groupDependencies(ctx: PackageContext): string[] {
  return dependencyPackages(ctx).filter((p) => p !== APIMACHINERY);
}

/** Kinds served as resources, in this package's own folders. */
export function ownKinds(ctx: PackageContext): SchemaFile[] {
  return ctx.files.filter((f) => isOwn(ctx, f) && f.schema['x-kapi-resource']);
}
