import { badPrimitiveList, badSetElementOrder, StrategicMergePatchError } from './errors.js';

export const PATCH_DIRECTIVE = '$patch';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** Keys that steer the merge of their map and never belong to a result. */
export function isDirectiveKey(key: string): boolean {
  return (
    key === PATCH_DIRECTIVE ||
    key === RETAIN_KEYS_DIRECTIVE ||
    key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) ||
    key.startsWith(SET_ELEMENT_ORDER_PREFIX)
  );
}

/** The list field a parallel-list key (`$setElementOrder/containers`) refers to; like upstream, only `<prefix>/` counts. */
export function parallelListField(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    const detail = `${JSON.stringify(key)} is not of the form ${prefix}/<field>`;
    throw prefix === SET_ELEMENT_ORDER_PREFIX ? badSetElementOrder(detail) : badPrimitiveList(detail);
  }
  return key.slice(slash + 1);
}

export interface ParsedStrategy {
  /** `merge`, `replace` or empty (lists are replaced, maps merged). */
  strategy: string;
  retainKeys: boolean;
}

/** Splits a combined patchStrategy such as `merge,retainKeys`; at most one strategy besides retainKeys is allowed. */
export function parsePatchStrategy(patchStrategy: string | undefined): ParsedStrategy {
  if (!patchStrategy) return { strategy: '', retainKeys: false };
  const parts = patchStrategy.split(',');
  if (parts.length === 1) {
    return parts[0] === 'retainKeys' ? { strategy: '', retainKeys: true } : { strategy: parts[0], retainKeys: false };
  }
  if (parts.length === 2) {
    if (parts[0] === 'retainKeys') return { strategy: parts[1], retainKeys: true };
    if (parts[1] === 'retainKeys') return { strategy: parts[0], retainKeys: true };
  }
  throw new StrategicMergePatchError(`unexpected patch strategy: [${parts.join(' ')}]`);
}
