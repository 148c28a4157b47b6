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

/** Whether a file's TypeScript type is emitted in this package (own folders, or copied from another group). */
export function emitsTypes(ctx: PackageContext, file: SchemaFile): boolean {
  return ctx.isApimachinery || ctx.model.group(file.folder).packageName !== APIMACHINERY;
}

export function isOwn(ctx: PackageContext, file: SchemaFile): boolean {
  return ctx.folders.includes(file.folder);
}

/** Kinds served as resources, in this package's own folders. */
export function ownKinds(ctx: PackageContext): SchemaFile[] {
  return ctx.files.filter((f) => isOwn(ctx, f) && f.schema['x-kapi-resource']);
}
