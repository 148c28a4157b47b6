/** Keys per block: a new key moves at most about this many others (a plain array would move every later key). */
const BLOCK = 512;

/** First index in the sorted `keys` whose key is not below `key`. */
export function lowerBoundIn(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A set of keys in sorted (code unit) order, read by position as a sorted array is (the n-th key, the position of
 * the first key not below one) for pages of a list. Kept in blocks of a few hundred keys with the position each
 * block starts at, so adding or removing a key costs O(log n) plus a block and the blocks' start positions, rather
 * than moving every later key of one big array (O(n): a collection of 100,000 keys moved 100,000 per create).
 * Used by the memory backend's key index and by the watch cache's lists.
 */
export class SortedKeys {
  private readonly blocks: string[][] = [];
  /** The position of each block's first key. */
  private readonly starts: number[] = [];
  private count = 0;
  /** The block the last positional read found its key in: a page reads its keys one after another. */
  private lastBlock = 0;

  /** `block`: keys per block (split at twice that); smaller ones are for tests. */
  constructor(private readonly block = BLOCK) {}

  /** Keys already in sorted order, without duplicates. */
  static from(sorted: readonly string[], block = BLOCK): SortedKeys {
    const keys = new SortedKeys(block);
    for (let i = 0; i < sorted.length; i += block) {
      keys.blocks.push(sorted.slice(i, i + block));
      keys.starts.push(i);
    }
    keys.count = sorted.length;
    return keys;
  }

  get length(): number {
    return this.count;
  }

  /** The key at position `i` (undefined past the end). */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.count) return undefined;
    let b = this.lastBlock;
    if (!(b < this.blocks.length && i >= this.starts[b] && i < this.starts[b] + this.blocks[b].length)) {
      // Not the block read last, nor (usually) the one after it: search the start positions.
      b = b + 1 < this.blocks.length && i >= this.starts[b + 1] && i < this.starts[b + 1] + this.blocks[b + 1].length ? b + 1 : this.blockAt(i);
      this.lastBlock = b;
    }
    return this.blocks[b][i - this.starts[b]];
  }

  /** The position of the first key not below `key` (the length when every key is below it). */
  lowerBound(key: string): number {
    if (!this.blocks.length) return 0;
    const b = this.blockFor(key);
    return this.starts[b] + lowerBoundIn(this.blocks[b], key);
  }

  has(key: string): boolean {
    if (!this.blocks.length) return false;
    const block = this.blocks[this.blockFor(key)];
    return block[lowerBoundIn(block, key)] === key;
  }

  /** Adds `key`; false when it was there already. */
  insert(key: string): boolean {
    if (!this.blocks.length) {
      this.blocks.push([key]);
      this.starts.push(0);
      this.count = 1;
      return true;
    }
    const b = this.blockFor(key);
    const block = this.blocks[b];
    const j = lowerBoundIn(block, key);
    if (block[j] === key) return false;
    block.splice(j, 0, key);
    this.count++;
    for (let k = b + 1; k < this.starts.length; k++) this.starts[k]++;
    if (block.length >= 2 * this.block) {
      // Split a full block in two halves.
      this.blocks.splice(b + 1, 0, block.splice(this.block));
      this.starts.splice(b + 1, 0, this.starts[b] + this.block);
    }
    return true;
  }

  /** Removes `key`; false when it was not there. */
  delete(key: string): boolean {
    if (!this.blocks.length) return false;
    const b = this.blockFor(key);
    const block = this.blocks[b];
    const j = lowerBoundIn(block, key);
    if (block[j] !== key) return false;
    block.splice(j, 1);
    this.count--;
    for (let k = b + 1; k < this.starts.length; k++) this.starts[k]--;
    if (block.length === 0) {
      this.blocks.splice(b, 1);
      this.starts.splice(b, 1);
      this.lastBlock = 0;
    }
    return true;
  }

  /** The block where `key` is or would go: the first whose last key is not below it, else the last block. */
  private blockFor(key: string): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid];
      if (block[block.length - 1] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The block holding position `i` (0 ≤ i < length): the last one starting at or before it. */
  private blockAt(i: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
