import { dropNulls, findUnknownFields, newBadRequest, type KubeObject } from '@kapi/apimachinery';
import { addWarnings } from '../registry/context.js';
import type { ResourceEntry } from '../registry/resources.js';
import { decodeTypeError } from '../registry/validation.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Reads `fieldValidation` (default Warn); any other value is 400 as kube answers it. */
export function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw newBadRequest(`fieldValidation parameter unsupported: ${value}. Supported values are Ignore, Warn, Strict`);
}

/**
 * Field validation of a decoded body (kube API concepts, "Field validation"). A wrongly typed value is fatal first
 * (400 at every level, as kube's decoder fails on it): the kind's type checks stand in for decoding into typed
 * structs, so that nothing between here and the Store's one validation (managed fields, names, the strategy)
 * meets a value of the wrong type. Then fields the schema does not declare are pruned, as kube prunes before
 * storage, and they and repeated fields are reported per the level: Ignore drops them silently, Warn returns one
 * warning per field, Strict rejects with 400 naming all. Schema defaults are applied to what remains.
 */
export function checkFields(
  entry: ResourceEntry,
  obj: KubeObject,
  level: FieldValidation,
  warnings: string[],
  duplicates: readonly string[] = [],
  options: { defaults?: boolean; nulls?: boolean } = {},
): void {
  // An apply configuration may hold `null` for any field (structured-merge-diff takes null as a value of every type;
  // Helm writes `annotations: null`, `args: null`...): it is not a wrongly typed value.
  entry.strategy.decode?.(obj);
  const typeError = decodeTypeError(entry, entry.checkTypes(options.nulls ? (dropNulls(obj) as KubeObject) : obj));
  if (typeError) throw typeError;
  const unknown = findUnknownFields(entry.group.fieldTree, entry.typeKey, obj, { prune: true });
  if (options.defaults !== false) entry.defaults(obj);
  if (level === 'Ignore') return;
  const messages = [...duplicates.map((path) => `duplicate field "${path}"`), ...unknown.map((path) => `unknown field "${path}"`)];
  if (!messages.length) return;
  if (level === 'Strict') throw newBadRequest(`strict decoding error: ${messages.join(', ')}`);
  addWarnings(warnings, messages);
}
