import type { Authorizer, SubjectRules } from '../types.js';

/**
 * kube's path authorizer (`--authorization-always-allow-paths`): non-resource requests to these paths are allowed
 * without asking anyone; a path ending in `*` allows every path it prefixes. Other requests have no opinion.
 */
export function alwaysAllowPaths(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of paths) {
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return {
    name: 'AlwaysAllowPaths',
    authorize: ({ resourceRequest, path }) =>
      !resourceRequest && (exact.has(path) || prefixes.some((p) => path.startsWith(p))) ? { decision: 'allow' } : { decision: 'no-opinion' },
    rulesFor: (): SubjectRules => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}
