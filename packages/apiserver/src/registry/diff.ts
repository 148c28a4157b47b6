/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
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
