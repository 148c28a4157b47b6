import { findUnknownFields, newBadRequest, type KubeObject } from '@kapi/apimachinery';
import type { ResourceEntry } from '../registry/resources.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Reads `fieldValidation` (default Warn); any other value is 400 as kube answers it. */
export function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw newBadRequest(`fieldValidation parameter unsupported: ${value}. Supported values are Ignore, Warn, Strict`);
}

/**
 * Prunes fields the schema does not declare, as kube does before storage, and reports them per the level:
 * Ignore drops them silently, Warn returns one warning per field, Strict rejects the request with 400 naming all.
 */
export function checkUnknownFields(entry: ResourceEntry, obj: KubeObject, level: FieldValidation, warnings: string[]): void {
  const unknown = findUnknownFields(entry.group.fieldTree, entry.typeKey, obj, { prune: true });
  if (!unknown.length || level === 'Ignore') return;
  const messages = unknown.map((path) => `unknown field "${path}"`);
  if (level === 'Strict') throw newBadRequest(`strict decoding error: ${messages.join(', ')}`);
  warnings.push(...messages);
}
