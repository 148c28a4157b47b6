import { goTypeName, goValue } from './goformat.js';

/**
 * The HTTP status kube-apiserver answers with for the same failure: 400 for malformed `$deleteFromPrimitiveList`,
 * `$setElementOrder` and `$retainKeys` directives and undecodable documents, 422 for lists of lists, and 500 where
 * upstream passes the error through unmapped (missing merge key, unknown `$patch` value, mismatched element types).
 * Every one of them is the client's fault, so a caller may answer the 500 class with 400 instead.
 */
export type StrategicMergePatchErrorCode = 400 | 422 | 500;

/** A strategic merge patch that cannot be applied to the object; the message follows upstream's wording. */
export class StrategicMergePatchError extends Error {
  readonly code: StrategicMergePatchErrorCode;

  constructor(message: string, code: StrategicMergePatchErrorCode = 500) {
    super(message);
    this.name = 'StrategicMergePatchError';
    this.code = code;
  }
}

export const badJSONDoc = (): StrategicMergePatchError => new StrategicMergePatchError('invalid JSON document', 400);

export const noListOfLists = (): StrategicMergePatchError =>
  new StrategicMergePatchError('lists of lists are not supported', 422);

const withDetail = (base: string, detail?: string): string => (detail ? `${base}: ${detail}` : base);

export const badPrimitiveList = (detail?: string): StrategicMergePatchError =>
  new StrategicMergePatchError(withDetail('invalid patch format of primitive list', detail), 400);

export const badSetElementOrder = (detail?: string): StrategicMergePatchError =>
  new StrategicMergePatchError(withDetail('invalid patch format of setElementOrder list', detail), 400);

export const badRetainKeys = (detail?: string): StrategicMergePatchError =>
  new StrategicMergePatchError(withDetail('invalid patch format of retainKeys', detail), 400);

export const badArgType = (expected: string, actual: unknown): StrategicMergePatchError =>
  new StrategicMergePatchError(`expected a ${expected}, but received a ${goTypeName(actual)}`);

export const noMergeKey = (map: unknown, mergeKey: string): StrategicMergePatchError =>
  new StrategicMergePatchError(`map: ${goValue(map)} does not contain declared merge key: ${mergeKey}`);

export const badPatchType = (directive: unknown, map: unknown): StrategicMergePatchError =>
  new StrategicMergePatchError(`unknown patch type: ${goValue(directive)} in map: ${goValue(map)}`);

export const mergeDirectiveInList = (): StrategicMergePatchError =>
  new StrategicMergePatchError('merging lists cannot yet be specified in the patch');
