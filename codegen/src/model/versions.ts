import type { Model } from './graph.js';
import type { SchemaFile } from './schema.js';

/** A kind served in several versions: the file of its storage version and those of the others. */
export interface MultiVersionKind {
  group: string;
  kind: string;
  storage: SchemaFile;
  /** The other versions' files, by version name. */
  others: SchemaFile[];
  /** The group's plugin converts the kind whole (`"conversion": "manual"` on the storage version). */
  manual: boolean;
}

/**
 * The kinds of `folders` served in several versions, each with its one storage version (`"storageVersion": true`
 * in the resource header). A kind in several versions without exactly one is an error naming it and its versions.
 */
export function multiVersionKinds(model: Model, folders: string[]): MultiVersionKind[] {
  const byKind = new Map<string, SchemaFile[]>();
  for (const file of model.set.files.values()) {
    const h = file.schema['x-kapi-resource'];
    if (!h || !folders.includes(file.folder)) continue;
    const id = `${h.group}/${h.kind}`;
    byKind.set(id, [...(byKind.get(id) ?? []), file]);
  }
  const out: MultiVersionKind[] = [];
  const errors: string[] = [];
  for (const files of [...byKind.values()].sort((a, b) => (a[0].id < b[0].id ? -1 : 1))) {
    if (files.length < 2) continue;
    const h = files[0].schema['x-kapi-resource']!;
    const versions = files.map((f) => f.version);
    const marked = files.filter((f) => f.schema['x-kapi-resource']!.storageVersion === true);
    if (marked.length !== 1) {
      const found = marked.length ? `${marked.map((f) => f.version).join(' and ')} are marked` : 'none is marked';
      errors.push(
        `${h.group || 'core'} ${h.kind} is served in ${versions.join(', ')} (${files.map((f) => `schemas/${f.id}.json`).join(', ')}): ` +
          `exactly one version must have "storageVersion": true in x-kapi-resource; ${found}`,
      );
      continue;
    }
    out.push({ group: h.group, kind: h.kind, storage: marked[0], others: files.filter((f) => f !== marked[0]), manual: marked[0].schema['x-kapi-resource']!.conversion === 'manual' });
  }
  if (errors.length) throw new Error(errors.join('\n'));
  return out;
}
