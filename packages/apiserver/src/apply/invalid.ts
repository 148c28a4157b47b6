// Errors of objects the engine cannot type (kube's "failed to create typed ... object"): a 500 whose Status has
// no reason and the raw message, as kube-apiserver serves a non-Status error.
import { StatusError } from '@kapi/apimachinery';
import { formatValidationErrors } from './validate.js';

export class ApplyInvalidError extends StatusError {
  /** The individual `path: message` errors. */
  readonly errors: readonly string[];

  constructor(message: string, errors: readonly string[]) {
    super({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
    this.errors = errors;
  }
}

const metaOf = (obj: unknown): Record<string, unknown> =>
  ((obj as { metadata?: unknown } | undefined)?.metadata as Record<string, unknown> | undefined) ?? {};

/** Go's objectGVKNN: `ns/name; apps/v1, Kind=Deployment` (`/v1` for the core group). */
export function describeObject(obj: unknown): string {
  const meta = metaOf(obj);
  const apiVersion = String((obj as { apiVersion?: unknown })?.apiVersion ?? '');
  const kind = String((obj as { kind?: unknown })?.kind ?? '');
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}; ${gv}, Kind=${kind}`;
}

export function typedObjectError(what: 'patch' | 'live', obj: unknown, errors: readonly string[]): ApplyInvalidError {
  return new ApplyInvalidError(`failed to create typed ${what} object (${describeObject(obj)}): ${formatValidationErrors(errors)}`, errors);
}
