import { isDeepFrozen } from '../../cacher/cache-event.js';

/** The most JSON text kept for shared objects, in UTF-16 code units (about twice as many bytes). */
const BUDGET = 8 * 1024 * 1024;

/** JSON texts of shared objects, oldest first. Strong references: bounded by BUDGET, not by the objects' lives. */
const texts = new Map<object, string>();
let held = 0;

/**
 * The compact JSON text of `value` (with kube's closing newline). A watch cache object (deep-frozen: it never
 * changes) is encoded once and its text reused while it stays among the most recently encoded: a GET of an object
 * that did not change costs no encoding. Anything else is encoded every time.
 */
export function jsonText(value: unknown): string {
  if (!isDeepFrozen(value)) return JSON.stringify(value) + '\n';
  const key = value as object;
  let text = texts.get(key);
  if (text !== undefined) return text;
  text = JSON.stringify(value) + '\n';
  if (text.length > BUDGET / 16) return text;
  texts.set(key, text);
  held += text.length;
  for (const [old, oldText] of texts) {
    if (held <= BUDGET) break;
    texts.delete(old);
    held -= oldText.length;
  }
  return text;
}
