import { cloneJson } from '../meta/own.js';
import { isObj, type Obj } from '../printing/values.js';
import type { ConversionPlan } from './types.js';

/** A partial object of the fields a version's value has without counterpart: list elements by index. */
export type Preserved = Obj;

/**
 * Sets `obj[key]` as an own data property. Keys come from objects' data (map keys, a client's annotation), and
 * JSON.parse makes `__proto__` an own key: assignment would follow it to the prototype and lose the value, so every
 * key is defined, never assigned.
 */
function setOwn(obj: Obj, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `obj[key]` when it is an own property (never one inherited from the prototype). */
const own = (obj: Obj, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);

/**
 * The fields of `value` the plan converts, converted into a fresh value sharing nothing with `value` (which is
 * never mutated). Fields the plan does not name (manual and preserved ones) are left out.
 */
export function applyPlan(plan: ConversionPlan, value: unknown): unknown {
  if (plan === 1 || value === null || typeof value !== 'object') return cloneJson(value);
  if ('items' in plan) return Array.isArray(value) ? value.map((v) => applyPlan(plan.items, v)) : cloneJson(value);
  if (!isObj(value)) return cloneJson(value);
  const out: Obj = {};
  if ('values' in plan) {
    for (const [k, v] of Object.entries(value)) setOwn(out, k, applyPlan(plan.values, v));
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    const child = Object.hasOwn(plan.props, k) ? plan.props[k] : undefined;
    if (child !== undefined && v !== undefined) setOwn(out, k, applyPlan(child, v));
  }
  return out;
}

/** The values of `value`'s `preserve` fields, at any depth, as a partial object (undefined when there are none). */
export function collectPreserved(plan: ConversionPlan, value: unknown): Preserved | undefined {
  if (plan === 1 || value === null || typeof value !== 'object') return undefined;
  const out: Obj = {};
  const add = (key: string, child: ConversionPlan, v: unknown) => {
    const kept = collectPreserved(child, v);
    if (kept) setOwn(out, key, kept);
  };
  if ('items' in plan) {
    if (Array.isArray(value)) value.forEach((v, i) => add(String(i), plan.items, v));
  } else if (isObj(value)) {
    if ('values' in plan) {
      for (const [k, v] of Object.entries(value)) add(k, plan.values, v);
    } else {
      for (const k of plan.preserve ?? []) if (own(value, k) !== undefined) setOwn(out, k, cloneJson(value[k]));
      for (const [k, child] of Object.entries(plan.props)) if (own(value, k) !== undefined) add(k, child, value[k]);
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
    if (!isObj(own(node, key))) setOwn(node, key, {});
    node = node[key] as Obj;
  }
  setOwn(node, String(path[path.length - 1]), cloneJson(value));
}

/** A deep copy of a JSON value whose keys, `__proto__` included, are all own data properties. */
function cleanCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanCopy);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, cleanCopy(v));
  return out;
}

/**
 * Merges a preserved value into `target[key]` where the target has none: what the conversion just set (a hook
 * converting the client's new value) wins over what an older conversion kept; objects merge key by key.
 */
function mergeInto(target: Obj, key: string, value: unknown): void {
  if (own(target, key) === undefined) {
    setOwn(target, key, cleanCopy(value));
    return;
  }
  const current = target[key];
  if (isObj(value) && isObj(current)) for (const [k, v] of Object.entries(value)) mergeInto(current, k, v);
}

/**
 * Writes preserved fields back into `target` (mutated), guided by `plan`, which describes `target`'s version (its
 * plan toward the other version): only the fields it has without counterpart (`preserve` and `manual` ones) are
 * restored, at the places the plan says; automatic fields, and fields the version does not have, never come from
 * the annotation (a client may write any annotation, so it must not set what validation has not seen). Inside a
 * list only elements that still exist are restored (a list element is addressed by its index).
 */
export function restorePreserved(target: unknown, preserved: Preserved, plan: ConversionPlan): void {
  if (plan === 1) return;
  if ('items' in plan) {
    if (!Array.isArray(target)) return;
    for (const [index, value] of Object.entries(preserved)) {
      const i = Number(index);
      if (Number.isInteger(i) && i >= 0 && i < target.length && isObj(value)) restorePreserved(target[i], value, plan.items);
    }
    return;
  }
  if (!isObj(target)) return;
  for (const [key, value] of Object.entries(preserved)) {
    if ('values' in plan) {
      if (Object.hasOwn(target, key) && isObj(value)) restorePreserved(target[key], value, plan.values);
    } else if (plan.preserve?.includes(key) || plan.manual?.includes(key)) {
      mergeInto(target, key, value);
    } else if (Object.hasOwn(plan.props, key) && isObj(value)) {
      const child = plan.props[key];
      // An object the version has, with fields of its own below: created when absent, as the annotation needs it.
      if (child !== 1 && 'props' in child && !Object.hasOwn(target, key)) setOwn(target, key, {});
      restorePreserved(target[key], value, child);
    }
  }
}
