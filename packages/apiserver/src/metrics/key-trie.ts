/**
 * Values found by a short sequence of keys, one Map level per key: a lookup on the request path makes no key string
 * (joining the parts and hashing the result costs more than the Map lookups it spares).
 */
export class KeyTrie<K, V> {
  private root = new Map<K, unknown>();

  private readonly depth: number;

  /** `depth`: how many keys find a value (none: one value, found by no key). */
  constructor(depth: number) {
    this.depth = Math.max(depth, 1);
  }

  /** The value at these keys (`depth` of them), if one was set. */
  get(keys: readonly K[]): V | undefined {
    let level: Map<K, unknown> | undefined = this.root;
    for (let i = 0; i < this.depth - 1 && level; i++) level = level.get(keys[i]!) as Map<K, unknown> | undefined;
    return level?.get(keys[this.depth - 1]!) as V | undefined;
  }

  set(keys: readonly K[], value: V): void {
    let level = this.root;
    for (let i = 0; i < this.depth - 1; i++) {
      let next = level.get(keys[i]!) as Map<K, unknown> | undefined;
      if (!next) level.set(keys[i]!, (next = new Map()));
      level = next;
    }
    level.set(keys[this.depth - 1]!, value);
  }

  /** Forgets every value. */
  clear(): void {
    this.root = new Map();
  }
}

/** Label values in the order of `labelNames`, a value not given being the empty one (as prom-client has it). */
export function labelValues(labelNames: readonly string[], given: string[]): string[] {
  return given.length >= labelNames.length ? given : labelNames.map((_, i) => given[i] ?? '');
}
