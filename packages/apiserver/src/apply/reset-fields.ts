// Fields no manager ever owns (kube's stripMeta set) and the fields a strategy resets (GetResetFields): those are
// excluded from a manager's set with everything below them, and changes to them are no conflict.
import type { ResourceInfo } from '@kapi/apimachinery';
import { EMPTY_SET, setOf, type FieldSet } from './field-set.js';
import { fieldPath } from './path-element.js';

/** Never owned: removed (as members only, like upstream's Difference) from the acting manager's set. */
export const STRIP_SET: FieldSet = setOf(
  ...['apiVersion', 'kind', 'metadata', 'metadata.name', 'metadata.namespace', 'metadata.creationTimestamp', 'metadata.selfLink',
    'metadata.uid', 'metadata.clusterName', 'metadata.generation', 'metadata.managedFields', 'metadata.resourceVersion'].map(fieldPath),
);

/** Reset fields as a set, or as dotted field paths (`status`, `metadata.labels`). */
export type ResetFieldsInput = FieldSet | readonly string[] | undefined;

export function toResetSet(input: ResetFieldsInput): FieldSet {
  if (!input) return EMPTY_SET;
  if (Array.isArray(input)) return setOf(...(input as readonly string[]).map(fieldPath));
  return input as FieldSet;
}

/**
 * kube's default reset fields: `status` for the main resource of a kind with a status subresource; `spec` for the
 * status subresource (custom resources' status strategy; some built-in kinds reset more, e.g. Deployment also
 * `metadata.labels` — pass those explicitly).
 */
export function resetFieldsFor(info: Pick<ResourceInfo, 'subresources'>, subresource?: string): readonly string[] {
  if (subresource === 'status') return ['spec'];
  if (!subresource && info.subresources.status) return ['status'];
  return [];
}
