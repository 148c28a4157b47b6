import { GENERATED_HEADER } from '../output.js';

/** One folder/version's barrel (`autoscaling/v1`) and the type names its modules export. */
export interface Barrel {
  path: string;
  names: string[];
}

const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** kube's version priority as a sort key, higher first: GA over beta over alpha, then the higher numbers. */
function priority(version: string): number[] {
  const m = VERSION.exec(version);
  if (!m) return [-1, 0, 0];
  return [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
}

const higher = (a: string, b: string): boolean => {
  const [pa, pb] = [priority(a.split('/').pop()!), priority(b.split('/').pop()!)];
  for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return pa[i]! > pb[i]!;
  return a > b;
};

/** `autoscaling/v1` → `autoscalingV1`: the namespace a barrel's types are also reachable under. */
const namespaceOf = (path: string): string =>
  path.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The package's `types.ts`: every barrel's types. A name that several versions export (a kind served in two
 * versions) would make `export *` ambiguous: it is re-exported explicitly from the version kube prefers, and each
 * version that loses a name is also exported as a namespace (`autoscalingV1.HorizontalPodAutoscaler`).
 */
export function packageBarrel(barrels: readonly Barrel[]): string {
  const sorted = [...barrels].sort((a, b) => (a.path < b.path ? -1 : 1));
  const owner = new Map<string, string>();
  const shared = new Set<string>();
  for (const { path, names } of sorted) {
    for (const name of names) {
      const current = owner.get(name);
      if (current !== undefined) shared.add(name);
      if (current === undefined || higher(path, current)) owner.set(name, path);
    }
  }
  const lines = sorted.map((b) => `export type * from './${b.path}/index.js';`);
  const losers = sorted.filter((b) => b.names.some((n) => shared.has(n) && owner.get(n) !== b.path));
  for (const b of losers) lines.push(`export type * as ${namespaceOf(b.path)} from './${b.path}/index.js';`);
  for (const b of sorted) {
    const won = [...shared].filter((n) => owner.get(n) === b.path).sort();
    if (won.length) lines.push(`export type { ${won.join(', ')} } from './${b.path}/index.js';`);
  }
  return `${GENERATED_HEADER}\n${lines.join('\n')}\n`;
}
