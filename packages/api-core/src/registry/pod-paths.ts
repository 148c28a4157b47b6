import { fieldInvalid, type FieldError } from '@kapi/apimachinery';

// The path and file mode rules kube 1.33 applies wherever a pod names a file: volume items, downward API files,
// subpaths, seccomp profiles (pkg/apis/core/validation).

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

/** kube's file mode check (`defaultMode`, `mode`): 0 to 0777, when given. */
export const fileModeErrors = (mode: unknown, field: string): FieldError[] =>
  typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [fieldInvalid(field, mode, FILE_MODE)] : [];

/** kube's validatePathNoBacksteps. */
export const backstepErrors = (path: string, field: string): FieldError[] =>
  path.split('/').includes('..') ? [fieldInvalid(field, path, "must not contain '..'")] : [];

/** kube's validateLocalDescendingPath: relative, and without a `..` element. */
export function localDescendingPathErrors(path: string, field: string): FieldError[] {
  return [...(path.startsWith('/') ? [fieldInvalid(field, path, 'must be a relative path')] : []), ...backstepErrors(path, field)];
}

/** kube's ValidateLocalNonReservedPath: a local descending path that does not start with `..`. */
export function localNonReservedPathErrors(path: string, field: string): FieldError[] {
  const errs = localDescendingPathErrors(path, field);
  if (path.startsWith('..') && !path.startsWith('../')) errs.push(fieldInvalid(field, path, "must not start with '..'"));
  return errs;
}
