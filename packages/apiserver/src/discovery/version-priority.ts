// kube's version priority (k8s.io/apimachinery/pkg/version CompareKubeAwareVersionStrings): GA before beta before
// alpha, higher numbers first, and versions that are not kube-like (`foo`, `v1.2`) last in alphabetical order.

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const TYPE_RANK: Record<string, number> = { alpha: 0, beta: 1, '': 2 };

function parse(version: string): { major: number; rank: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(version);
  if (!m) return undefined;
  return { major: Number(m[1]), rank: TYPE_RANK[m[2] ?? ''], minor: Number(m[3] ?? 0) };
}

/** Positive when `a` has higher priority than `b`, negative when lower, 0 when equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? 1 : -1;
  if (!pa) return -1;
  if (!pb) return 1;
  if (pa.rank !== pb.rank) return pa.rank - pb.rank;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

/** `versions` from the most preferred to the least (`v2`, `v1`, `v1beta2`, `v1beta1`, `v1alpha1`, `foo`). */
export function sortByVersionPriority(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort((a, b) => compareKubeAwareVersions(b, a));
}
