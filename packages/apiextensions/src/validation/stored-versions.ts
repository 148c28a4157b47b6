// status.storedVersions (ValidateCustomResourceDefinitionStoredVersions).
import type { FieldError } from '@kapi/apimachinery';
import { index, invalid } from './field.js';
import type { Version } from './internal.js';

/**
 * status.storedVersions holds the storage version, and every stored version is still in spec.versions (until a
 * storage migration removes it from status). The strategy adds the storage version before this runs (kube's
 * PrepareForCreate and PrepareForUpdate).
 */
export function validateStoredVersions(storedVersions: string[], versions: Version[], fldPath: string): FieldError[] {
  if (storedVersions.length === 0) return [invalid(fldPath, storedVersions, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const stored = new Map<string, number>();
  storedVersions.forEach((v, i) => stored.set(v, i));
  for (const v of versions) {
    if (v.storage && !stored.has(v.name)) errs.push(invalid(fldPath, storedVersions, `must have the storage version ${v.name}`));
    stored.delete(v.name);
  }
  for (const [v, i] of stored) {
    errs.push(
      invalid(
        index(fldPath, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}
