import { labelSelectorFromObject } from '../selectors/label-selector-object.js';
import type { LabelSelector } from '../generated/meta/v1/index.js';
import { isObj, orNone, str } from './values.js';

/** kube's labels.FormatLabels: `a=1,b=2` by key, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  if (!isObj(labels)) return '<none>';
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${str(labels[k])}`);
  return orNone(pairs.join(','));
}

/** A metav1.LabelSelector as kube's selector string; `fallback` when it cannot be a selector. */
export function selectorString(selector: unknown, fallback: string): string {
  try {
    return labelSelectorFromObject(selector as LabelSelector | undefined).toString();
  } catch {
    return fallback;
  }
}

/** kube's metav1.FormatLabelSelector: `<none>` for an empty selector, `<error>` for an invalid one. */
export const formatLabelSelector = (selector: unknown): string => orNone(selectorString(selector, '<error>'));
