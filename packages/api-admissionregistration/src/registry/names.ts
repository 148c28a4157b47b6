// kube's name checks used by admissionregistration validation, with its messages.
import { isDNS1123Subdomain, parseGroupVersion as parseApiVersion, type FieldError } from '@kapi/apimachinery';
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

const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** isCELIdentifier: CEL's IDENT production, reserved words excluded. */
export const isCELIdentifier = (name: string): boolean => CEL_IDENT.test(name) && !CEL_RESERVED.has(name);

/** kube's schema.ParseGroupVersion with its error as a value, for admissionregistration's validation. */
export function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  try {
    return parseApiVersion(gv);
  } catch (err) {
    return { error: (err as Error).message };
  }
}
