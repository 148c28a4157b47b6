import { KUBECTL_TABLE } from './kubectl-table.js';
import type { RestOperation } from './paths.js';
import { printerColumns } from './printer-columns.js';
import { restShapeOf } from './resources.js';
import type { GroupVersionKind, KapiSchema, SwaggerSchema } from './types.js';

/** The kind a definition is, from its `x-kubernetes-group-version-kind` (the first entry in the own group). */
export function gvkOf(definition: string, swagger: SwaggerSchema): GroupVersionKind {
  const gvks = swagger['x-kubernetes-group-version-kind'] as GroupVersionKind[] | undefined;
  if (!gvks?.length) throw new Error(`${definition} is not a kind`);
  return gvks[0];
}

/**
 * Kinds kube serves in several versions of one group: the version objects are stored in (kube's storage factory),
 * and `manual` where the group's plugin converts the kind whole (kube's hand-written conversion.go).
 */
const STORAGE_VERSIONS: Record<string, { version: string; conversion?: 'manual' }> = {
  'autoscaling/HorizontalPodAutoscaler': { version: 'v2', conversion: 'manual' },
};

/** The `x-kapi-resource` header of a kind: REST shape from swagger paths, the rest from the hand table. */
export function resourceHeader(
  definition: string,
  definitions: Map<string, SwaggerSchema>,
  ops: readonly RestOperation[],
): KapiSchema {
  const swagger = definitions.get(definition)!;
  const gvk = gvkOf(definition, swagger);
  const shape = restShapeOf(gvk, ops);
  const table = KUBECTL_TABLE[`${gvk.group}/${gvk.kind}`] ?? {};
  const header: KapiSchema = {
    group: gvk.group,
    version: gvk.version,
    kind: gvk.kind,
    plural: shape.plural,
    singular: gvk.kind.toLowerCase(),
    scope: shape.scope,
  };
  const storage = STORAGE_VERSIONS[`${gvk.group}/${gvk.kind}`];
  if (storage?.version === gvk.version) {
    header.storageVersion = true;
    if (storage.conversion) header.conversion = storage.conversion;
  }
  if (table.shortNames) header.shortNames = table.shortNames;
  if (table.categories) header.categories = table.categories;
  if (table.nameValidation) header.nameValidation = table.nameValidation;
  if (table.allowCreateOnUpdate === false) header.allowCreateOnUpdate = false;
  if (table.allowUnconditionalUpdate === false) header.allowUnconditionalUpdate = false;
  if (table.deprecated) header.deprecated = table.deprecated;
  header.verbs = shape.verbs;
  if (shape.subresources) header.subresources = shape.subresources;
  if (table.printerColumns) header.printerColumns = printerColumns(gvk.kind, swagger, table.printerColumns, definitions);
  return header;
}
