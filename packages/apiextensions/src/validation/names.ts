// Names: metadata.name, spec.names and status.acceptedNames (ValidateCustomResourceDefinitionNames).
import type { FieldError } from '@kapi/apimachinery';
import { isDNS1035Label } from './dns.js';
import { child, index, invalid, required } from './field.js';
import type { Names, Spec } from './internal.js';

/**
 * The CRD's own rule for metadata.name (and generateName), beside the DNS-subdomain rule the registry applies to
 * every name: it must be `<spec.names.plural>.<spec.group>`. Checked on create only, as kube does.
 */
export function validateCRDName(meta: { name?: string; generateName?: string } | undefined, spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const requiredName = `${spec.names.plural ?? ''}.${spec.group}`;
  const msg = 'must be spec.names.plural+"."+spec.group';
  if (meta?.generateName && meta.generateName !== requiredName) errs.push(invalid('metadata.generateName', meta.generateName, msg));
  if (meta?.name && meta.name !== requiredName) errs.push(invalid('metadata.name', meta.name, msg));
  return errs;
}

/** The names spec requires (status.acceptedNames may leave them empty). */
export function validateRequiredNames(names: Names, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const name of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (!names[name]) errs.push(required(child(fldPath, 'names', name)));
  }
  return errs;
}

/** kube's ValidateCustomResourceDefinitionNames: format of the names that are set, and kind != listKind. */
export function validateNames(names: Names, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (name: 'plural' | 'singular'): void => {
    const value = names[name];
    const problems = isDNS1035Label(value ?? '');
    if (value && problems.length > 0) errs.push(invalid(child(fldPath, name), value, problems.join(',')));
  };
  const mixedCase = (name: 'kind' | 'listKind'): void => {
    const value = names[name];
    const problems = isDNS1035Label((value ?? '').toLowerCase());
    if (value && problems.length > 0) {
      errs.push(invalid(child(fldPath, name), value, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
    }
  };
  label('plural');
  label('singular');
  mixedCase('kind');
  mixedCase('listKind');
  (names.shortNames ?? []).forEach((shortName, i) => {
    const problems = isDNS1035Label(shortName);
    if (problems.length > 0) errs.push(invalid(index(child(fldPath, 'shortNames'), i), shortName, problems.join(',')));
  });
  if (names.kind && names.kind === names.listKind) {
    errs.push(invalid(child(fldPath, 'listKind'), names.listKind, 'kind and listKind may not be the same'));
  }
  (names.categories ?? []).forEach((category, i) => {
    const problems = isDNS1035Label(category);
    if (problems.length > 0) errs.push(invalid(index(child(fldPath, 'categories'), i), category, problems.join(',')));
  });
  return errs;
}
