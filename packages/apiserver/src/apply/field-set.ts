// An immutable set of field paths, stored as a trie like structured-merge-diff's fieldpath.Set: `members` are the
// path elements that are in the set at this level, `children` the subsets below an element (being a child does not
// imply membership). Both sorted by comparePE. Every operation returns a new set; inputs are never changed.
import { comparePE, type Path, type PathElement } from './path-element.js';

export interface SetNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export interface FieldSet {
  readonly members: readonly PathElement[];
  readonly children: readonly SetNode[];
}

export const EMPTY_SET: FieldSet = Object.freeze({ members: Object.freeze([]), children: Object.freeze([]) });

/** A set of these members and children, both already sorted by comparePE, each element once (taken, not copied). */
export const makeSet = (members: PathElement[], children: SetNode[]): FieldSet =>
  members.length === 0 && children.length === 0 ? EMPTY_SET : Object.freeze({ members: Object.freeze(members), children: Object.freeze(children) });

function search<T>(items: readonly T[], pe: PathElement, peOf: (t: T) => PathElement): [index: number, found: boolean] {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePE(peOf(items[mid]!), pe);
    if (c === 0) return [mid, true];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return [lo, false];
}
/** Accessors of the path element of a member and of a child, for the sorted searches and merges. */
export const memberPE = (pe: PathElement) => pe;
export const nodePE = (n: SetNode) => n.pe;

/**
 * A mutable set for building one in a single walk (toFieldSet, compare); {@link SetBuilder.build} freezes it.
 * Upstream's Insert: parents are not added; the empty path (the whole object) is never a member.
 */
export class SetBuilder {
  private readonly members: PathElement[] = [];
  private readonly children: { pe: PathElement; b: SetBuilder }[] = [];

  insert(path: Path): this {
    if (path.length === 0) return this;
    let b: SetBuilder = this;
    for (let i = 0; i < path.length - 1; i++) b = b.descend(path[i]!);
    const last = path[path.length - 1]!;
    const [at, found] = search(b.members, last, memberPE);
    if (!found) b.members.splice(at, 0, last);
    return this;
  }

  private descend(pe: PathElement): SetBuilder {
    const [at, found] = search(this.children, pe, (c) => c.pe);
    if (found) return this.children[at]!.b;
    const b = new SetBuilder();
    this.children.splice(at, 0, { pe, b });
    return b;
  }

  build(): FieldSet {
    const children: SetNode[] = [];
    for (const c of this.children) {
      const set = c.b.build();
      if (!isEmpty(set)) children.push(Object.freeze({ pe: c.pe, set }));
    }
    return makeSet([...this.members], children);
  }
}

/** A set of the given paths. */
export function setOf(...paths: Path[]): FieldSet {
  const b = new SetBuilder();
  for (const p of paths) b.insert(p);
  return b.build();
}

/** Whether the set has no member at any depth. */
export function isEmpty(s: FieldSet): boolean {
  return s.members.length === 0 && s.children.every((c) => isEmpty(c.set));
}

/** Whether `path` is a member (its last element a member below the others). */
export function has(s: FieldSet, path: Path): boolean {
  if (path.length === 0) return false;
  let cur = s;
  for (let i = 0; i < path.length - 1; i++) {
    const next = childOf(cur, path[i]!);
    if (!next) return false;
    cur = next;
  }
  return search(cur.members, path[path.length - 1]!, memberPE)[1];
}

/** The subset below one path element, without the element (WithPrefix). */
export function withPrefix(s: FieldSet, pe: PathElement): FieldSet {
  return childOf(s, pe) ?? EMPTY_SET;
}

function childOf(s: FieldSet, pe: PathElement): FieldSet | undefined {
  const [at, found] = search(s.children, pe, nodePE);
  return found ? s.children[at]!.set : undefined;
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], peOf: (t: T) => PathElement, both: (x: T, y: T) => T | undefined, onlyA: boolean, onlyB: boolean): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePE(peOf(a[i]!), peOf(b[j]!));
    if (c < 0) {
      if (onlyA) out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (onlyB) out.push(b[j]!);
      j++;
    } else {
      const r = both(a[i]!, b[j]!);
      if (r !== undefined) out.push(r);
      i++;
      j++;
    }
  }
  if (onlyA) while (i < a.length) out.push(a[i++]!);
  if (onlyB) while (j < b.length) out.push(b[j++]!);
  return out;
}

const node = (pe: PathElement, set: FieldSet): SetNode | undefined => (isEmpty(set) ? undefined : Object.freeze({ pe, set }));

/** Paths in either set. */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (a === b || isEmpty(b)) return a;
  if (isEmpty(a)) return b;
  return makeSet(
    mergeSorted(a.members, b.members, memberPE, (x) => x, true, true),
    mergeSorted(a.children, b.children, nodePE, (x, y) => node(x.pe, union(x.set, y.set)), true, true),
  );
}

/** Paths in both sets. */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  return makeSet(
    mergeSorted(a.members, b.members, memberPE, (x) => x, false, false),
    mergeSorted(a.children, b.children, nodePE, (x, y) => node(x.pe, intersection(x.set, y.set)), false, false),
  );
}

/**
 * Paths of `a` not in `b`. Membership only: a member of `b` does not remove `a`'s paths below it (upstream's
 * Difference); see {@link recursiveDifference} for that.
 */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmpty(b)) return a;
  return makeSet(
    mergeSorted(a.members, b.members, memberPE, () => undefined, true, false),
    mergeSorted(a.children, b.children, nodePE, (x, y) => node(x.pe, difference(x.set, y.set)), true, false),
  );
}

/** Paths of `a` neither in `b` nor below a member of `b` (RecursiveDifference, how reset fields are excluded). */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmpty(b)) return a;
  const bHas = (pe: PathElement) => search(b.members, pe, memberPE)[1];
  return makeSet(
    mergeSorted(a.members, b.members, memberPE, () => undefined, true, false),
    mergeSorted(a.children, b.children, nodePE, (x, y) => (bHas(x.pe) ? undefined : node(x.pe, recursiveDifference(x.set, y.set))), true, false)
      .filter((c) => !bHas(c.pe)),
  );
}

/** Only the leaf paths: members that have no children. */
export function leaves(s: FieldSet): FieldSet {
  const members = s.members.filter((m) => childOf(s, m) === undefined);
  return makeSet(members, s.children.map((c) => node(c.pe, leaves(c.set))).filter((c): c is SetNode => c !== undefined));
}

/** Whether every member of `a` is a member of `b` (`a` minus `b` is empty), without building the difference. */
export function isSubset(a: FieldSet, b: FieldSet): boolean {
  if (a === b || isEmpty(a)) return true;
  let j = 0;
  for (const m of a.members) {
    while (j < b.members.length && comparePE(b.members[j]!, m) < 0) j++;
    if (j === b.members.length || comparePE(b.members[j]!, m) !== 0) return false;
  }
  for (const c of a.children) if (!isSubset(c.set, childOf(b, c.pe) ?? EMPTY_SET)) return false;
  return true;
}

/** Same members at every depth. */
export function setEquals(a: FieldSet, b: FieldSet): boolean {
  if (a === b) return true;
  if (a.members.length !== b.members.length || a.children.length !== b.children.length) return false;
  for (let i = 0; i < a.members.length; i++) if (comparePE(a.members[i]!, b.members[i]!) !== 0) return false;
  for (let i = 0; i < a.children.length; i++) {
    if (comparePE(a.children[i]!.pe, b.children[i]!.pe) !== 0 || !setEquals(a.children[i]!.set, b.children[i]!.set)) return false;
  }
  return true;
}

/** Every member path, in upstream's Iterate order (a level's members, then each child's paths). */
export function paths(s: FieldSet): Path[] {
  const out: Path[] = [];
  const walk = (set: FieldSet, prefix: PathElement[]) => {
    for (const m of set.members) out.push([...prefix, m]);
    for (const c of set.children) walk(c.set, [...prefix, c.pe]);
  };
  walk(s, []);
  return out;
}

/** Number of member paths. */
export function setSize(s: FieldSet): number {
  return s.members.length + s.children.reduce((n, c) => n + setSize(c.set), 0);
}
