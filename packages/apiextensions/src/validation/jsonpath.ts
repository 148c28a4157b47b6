// kube's validateSimpleJSONPath, for printer columns and the scale subresource.
import type { FieldError } from '@kapi/apimachinery';
import { invalid } from './field.js';

/** A JSON path in the dot notation starting with `.` (kube checks no more than that). */
export function validateSimpleJSONPath(s: string, fldPath: string): FieldError[] {
  if (s.length === 0) return [invalid(fldPath, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(fldPath, s, 'must be a simple json path starting with .')];
  return [];
}
