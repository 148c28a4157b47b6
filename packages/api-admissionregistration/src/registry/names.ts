// kube's name checks used by admissionregistration validation, with its messages.
import { isDNS1123Subdomain, isLabelKey, type FieldError } from '@kapi/apimachinery';
import { invalid, required } from './errors.js';

/**
 * utilvalidation.IsFullyQualifiedName: required, an RFC 1123 subdomain, and at least three dot-separated segments
 * (a webhook's name).
 */
export function validateFullyQualifiedName(field: string, name: string): FieldError[] {
  if (name.length === 0) return [required(field)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(field, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** apivalidation.ValidateQualifiedName: one Invalid per problem of the name as a qualified name (a label key). */
export const validateQualifiedName = (field: string, name: string): FieldError[] => isLabelKey(name).map((msg) => invalid(field, name, msg));

/** path.ValidatePathSegmentName(name, false): not `.` or `..`, no `/` or `%`. */
export function pathSegmentNameErrors(name: string): string[] {
  for (const illegal of ['.', '..']) if (name === illegal) return [`may not be '${illegal}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** isCELIdentifier: CEL's IDENT production, reserved words excluded. */
export const isCELIdentifier = (name: string): boolean => CEL_IDENT.test(name) && !CEL_RESERVED.has(name);

/** parseGroupVersion of admissionregistration's validation: `group/version`, `version`, or an error for more slashes. */
export function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv.length === 0 || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { error: `unexpected GroupVersion string: ${gv}` };
}
