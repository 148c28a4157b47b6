import { DELETE_FROM_PRIMITIVE_LIST_PREFIX, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX } from './directives.js';
import { badRetainKeys } from './errors.js';
import { goValue } from './goformat.js';
import { hasKey, type JsonMap } from './json.js';

/**
 * Applies `$retainKeys` (sent for fields with patchStrategy `retainKeys`, such as a Deployment's spec.strategy or a
 * volume): every key the patch sets must be listed, and live keys not listed are cleared. Mutates `original`.
 */
export function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!hasKey(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw badRetainKeys(`${RETAIN_KEYS_DIRECTIVE} must be a list, got ${goValue(list)}`);
  const retained = new Set<unknown>(list);
  for (const [key, value] of Object.entries(patch)) {
    if (
      value === null ||
      value === undefined ||
      key === RETAIN_KEYS_DIRECTIVE ||
      key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) ||
      key.startsWith(SET_ELEMENT_ORDER_PREFIX)
    ) {
      continue;
    }
    if (!retained.has(key)) throw badRetainKeys(`the patch sets ${JSON.stringify(key)}, missing from ${goValue(list)}`);
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}
