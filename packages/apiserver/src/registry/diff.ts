import { getOwn } from '@kapi/apimachinery';

/** Structural equality of JSON values (key order ignored; a key whose value is undefined counts as absent). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Every defined value of `a` equals `b`'s under its key (so is defined there), and `b` has no more of them.
  let defined = 0;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === undefined) continue;
    defined++;
    if (!jsonEqual(v, getOwn(y, k))) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined) defined--;
  return defined === 0;
}

/**
 * Whether anything but metadata (and status, when the kind has a status subresource) differs: what bumps
 * metadata.generation, as kube's strategies do. Without the subresource status is part of what the client writes, and
 * a change of it counts (kube's customResourceStrategy for a version without `subresources.status`).
 */
export function specChanged(obj: Record<string, unknown>, old: Record<string, unknown>, statusSubresource = true): boolean {
  const strip = (o: Record<string, unknown>) => {
    const { metadata: _m, status, apiVersion: _a, kind: _k, ...rest } = o;
    return statusSubresource || status === undefined ? rest : { ...rest, status };
  };
  return !jsonEqual(strip(obj), strip(old));
}
