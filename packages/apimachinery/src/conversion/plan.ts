import { isObj, type Obj } from '../printing/values.js';
import type { ConversionPlan } from './types.js';

/** A partial object of the fields a version's value has without counterpart: list elements by index. */
export type Preserved = Obj;

/**
 * The fields of `value` the plan converts, converted into a fresh value sharing nothing with `value` (which is
 * never mutated). Fields the plan does not name (manual and preserved ones) are left out.
 */
export function applyPlan(plan: ConversionPlan, value: unknown): unknown {
  if (plan === 1 || value === null || typeof value !== 'object') return structuredClone(value);
  if ('items' in plan) return Array.isArray(value) ? value.map((v) => applyPlan(plan.items, v)) : structuredClone(value);
  if (!isObj(value)) return structuredClone(value);
  const out: Obj = {};
  if ('values' in plan) {
    for (const [k, v] of Object.entries(value)) out[k] = applyPlan(plan.values, v);
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    const child = plan.props[k];
    if (child !== undefined && v !== undefined) out[k] = applyPlan(child, v);
  }
  return out;
}

/** The values of `value`'s `preserve` fields, at any depth, as a partial object (undefined when there are none). */
export function collectPreserved(plan: ConversionPlan, value: unknown): Preserved | undefined {
  if (plan === 1 || value === null || typeof value !== 'object') return undefined;
  const out: Obj = {};
  const add = (key: string, child: ConversionPlan, v: unknown) => {
    const kept = collectPreserved(child, v);
    if (kept) out[key] = kept;
  };
  if ('items' in plan) {
    if (Array.isArray(value)) value.forEach((v, i) => add(String(i), plan.items, v));
  } else if (isObj(value)) {
    if ('values' in plan) {
      for (const [k, v] of Object.entries(value)) add(k, plan.values, v);
    } else {
      for (const k of plan.preserve ?? []) if (value[k] !== undefined) out[k] = structuredClone(value[k]);
      for (const [k, child] of Object.entries(plan.props)) if (value[k] !== undefined) add(k, child, value[k]);
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** Sets `value` at `path` of the partial object `into`, creating the objects on the way. */
export function addPreserved(into: Preserved, path: readonly (string | number)[], value: unknown): void {
  if (!path.length) return;
  let node = into;
  for (const seg of path.slice(0, -1)) {
    const key = String(seg);
    if (!isObj(node[key])) node[key] = {};
    node = node[key] as Obj;
  }
  node[String(path[path.length - 1])] = structuredClone(value);
}

/**
 * Writes preserved fields back into `target` (mutated): objects are created on the way, but inside a list only
 * elements that still exist are restored (a list element is addressed by its index).
 */
export function restorePreserved(target: Obj, preserved: Preserved): void {
  for (const [key, value] of Object.entries(preserved)) {
    const current = target[key];
    if (isObj(value) && Array.isArray(current)) restoreInList(current, value);
    else if (isObj(value) && isObj(current)) restorePreserved(current, value);
    else target[key] = structuredClone(value);
  }
}

function restoreInList(list: unknown[], preserved: Preserved): void {
  for (const [index, value] of Object.entries(preserved)) {
    const i = Number(index);
    if (!Number.isInteger(i) || i < 0 || i >= list.length) continue;
    const element = list[i];
    if (isObj(value) && isObj(element)) restorePreserved(element, value);
    else if (isObj(value) && Array.isArray(element)) restoreInList(element, value);
  }
}
