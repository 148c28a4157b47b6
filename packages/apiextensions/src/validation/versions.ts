// spec.versions: names, storage, deprecation, and each version's schema, subresources, printer columns and
// selectable fields (validateCustomResourceDefinitionVersion and the version checks of the spec).
import type { FieldError } from '@kapi/apimachinery';
import { validateColumn } from './columns.js';
import { isDNS1035Label } from './dns.js';
import { child, index, invalid } from './field.js';
import type { Spec, Subresources, Version } from './internal.js';
import { has } from './json.js';
import { validateCustomResourceValidation, type ValidationOptions } from './schema/validation.js';
import { validateSelectableFieldsWithSchema } from './selectable-fields.js';
import { validateSubresources } from './subresources.js';
import type { CRDValidationOptions } from './types.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** validateDeprecationWarning: only for deprecated versions, 1-256 bytes of printable UTF-8. */
export function deprecationWarningProblems(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const problems: string[] = [];
  if (Buffer.byteLength(warning, 'utf8') > 256) problems.push('must be <= 256 characters long');
  if (warning.length === 0) problems.push('must not be an empty string');
  let byteIndex = 0;
  for (const ch of warning) {
    // a lone surrogate is invalid UTF-8, which Go reads as U+FFFD (printable) and reports below
    if (!PRINTABLE.test(ch) && !/^[\uD800-\uDFFF]$/.test(ch)) {
      problems.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += Buffer.byteLength(ch, 'utf8');
  }
  if (/[\uD800-\uDFFF]/u.test(warning)) problems.push('must only contain printable UTF-8 characters');
  return problems;
}

/** The subresources that apply to a version: its own when any version has some, else the spec-level ones. */
export function subresourcesForVersion(spec: Spec, name: string): Subresources | undefined {
  if (!spec.versions.some((v) => v.subresources)) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources;
}

/** One version's own fields (validateCustomResourceDefinitionVersion). */
export function validateVersion(
  version: Version,
  fldPath: string,
  statusEnabled: boolean,
  opts: ValidationOptions,
  hooks: CRDValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const msg of deprecationWarningProblems(version.deprecated, version.deprecationWarning)) {
    errs.push(invalid(child(fldPath, 'deprecationWarning'), version.deprecationWarning, msg));
  }
  errs.push(...validateCustomResourceValidation(version.schema, statusEnabled, opts, hooks, child(fldPath, 'schema')));
  errs.push(...validateSubresources(version.subresources, child(fldPath, 'subresources')));
  (version.additionalPrinterColumns ?? []).forEach((col, i) => {
    errs.push(...validateColumn(col, index(child(fldPath, 'additionalPrinterColumns'), i)));
  });
  errs.push(...validateSelectableFieldsWithSchema(version.selectableFields, version.schema, true, fldPath));
  return errs;
}

/**
 * The list of versions: each name a DNS-1035 label and unique, exactly one storage version; then each version's own
 * fields. kube does not require a served version.
 */
export function validateVersions(spec: Spec, opts: ValidationOptions, hooks: CRDValidationOptions, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const versionsPath = child(fldPath, 'versions');
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  spec.versions.forEach((version, i) => {
    if (version.storage) storage++;
    if (seen.has(version.name)) unique = false;
    else seen.add(version.name);
    const problems = isDNS1035Label(version.name);
    if (problems.length > 0) errs.push(invalid(child(index(versionsPath, i), 'name'), version.name, problems.join(',')));
    const statusEnabled = has(subresourcesForVersion(spec, version.name)?.status);
    errs.push(...validateVersion(version, index(versionsPath, i), statusEnabled, opts, hooks));
  });
  if (!unique) errs.push(invalid(versionsPath, spec.versions, 'must contain unique version names'));
  if (storage !== 1) errs.push(invalid(versionsPath, spec.versions, 'must have exactly one version marked as storage version'));
  if (spec.version) {
    // spec.version is versions[0].name after conversion: kube reports a bad first name here too
    const problems = isDNS1035Label(spec.version);
    if (problems.length > 0) errs.push(invalid(child(fldPath, 'version'), spec.version, problems.join(',')));
  }
  return errs;
}
