import { applyDefaults, findUnknownFields, newBadRequest, type KubeObject } from '@kapi/apimachinery';
import type { ResourceEntry } from '../registry/resources.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Reads `fieldValidation` (default Warn); any other value is 400 as kube answers it. */
export function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw newBadRequest(`fieldValidation parameter unsupported: ${value}. Supported values are Ignore, Warn, Strict`);
}

const JSON_TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'bool', object: 'object' };

/**
 * A value of the wrong type is a decoding error in kube (400 at every validation level, reporting only the
 * first one and nothing about unknown or duplicate fields), not a validation error.
 */
function checkFatal(entry: ResourceEntry, obj: KubeObject): void {
  const fatal = entry.validate(obj).find((e) => e.type === 'FieldValueTypeInvalid');
  if (!fatal) return;
  const { kind, version } = entry.info;
  const got = Array.isArray(fatal.badValue) ? 'array' : JSON_TYPES[typeof fatal.badValue] ?? 'value';
  throw newBadRequest(
    `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${got} into Go struct field ${fatal.field} (${fatal.message})`,
  );
}

/**
 * Field validation of a decoded body (spec "Field validation"): a wrong type is fatal (400); then fields the
 * schema does not declare are pruned, as kube prunes before storage, and they and repeated fields are reported
 * per the level: Ignore drops them silently, Warn returns one warning per field, Strict rejects with 400 naming all.
 * Schema defaults are applied to what remains.
 */
export function checkFields(
  entry: ResourceEntry,
  obj: KubeObject,
  level: FieldValidation,
  warnings: string[],
  duplicates: readonly string[] = [],
  options: { defaults?: boolean } = {},
): void {
  checkFatal(entry, obj);
  const unknown = findUnknownFields(entry.group.fieldTree, entry.typeKey, obj, { prune: true });
  if (options.defaults !== false) applyDefaults(entry.group.fieldTree, entry.typeKey, obj);
  if (level === 'Ignore') return;
  const messages = [...duplicates.map((path) => `duplicate field "${path}"`), ...unknown.map((path) => `unknown field "${path}"`)];
  if (!messages.length) return;
  if (level === 'Strict') throw newBadRequest(`strict decoding error: ${messages.join(', ')}`);
  warnings.push(...messages);
}
