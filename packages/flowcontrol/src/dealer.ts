/**
 * Shuffle sharding (kube's fairqueuing/queueset shufflesharding.Dealer): a flow's hash picks a hand of `handSize`
 * distinct queues out of `deckSize`, so two flows rarely share all their queues and one heavy flow fills only its own.
 */
export class Dealer {
  constructor(
    readonly deckSize: number,
    readonly handSize: number,
  ) {
    if (!(deckSize >= 1 && handSize >= 1 && handSize <= deckSize)) throw new RangeError(`a hand of ${handSize} out of ${deckSize} queues`);
  }

  /** The hand's queue indexes, distinct, in dealing order. The hash's low digits (mixed radix) choose each card. */
  deal(hash: number): number[] {
    const remainders: number[] = [];
    let value = hash;
    for (let i = 0; i < this.handSize; i++) {
      const radix = this.deckSize - i;
      const next = Math.floor(value / radix);
      remainders.push(value - next * radix);
      value = next;
    }
    // The i-th remainder indexes the cards not dealt yet: move it past every earlier card at or below it.
    const hand: number[] = [];
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i];
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]) card++;
      hand.push(card);
    }
    return hand;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** Flows' hashes by schema name and distinguisher: most requests come from a few flows. */
const hashes = new Map<string, Map<string, number>>();
/** Distinguishers remembered per schema, and schemas; past either, those are forgotten and hashed again. */
const HASHES_PER_SCHEMA = 4096;
const SCHEMAS = 1024;

/**
 * A flow's 53-bit hash, from its FlowSchema's name and its distinguisher (kube hashes the same pair): two 32-bit
 * FNV-1a hashes, the second seeded differently, joined. Enough entropy for any hand kube's validation allows.
 */
export function flowHash(flowSchema: string, distinguisher: string): number {
  let known = hashes.get(flowSchema);
  if (!known) {
    if (hashes.size >= SCHEMAS) hashes.clear();
    hashes.set(flowSchema, (known = new Map()));
  }
  let hash = known.get(distinguisher);
  if (hash === undefined) {
    if (known.size >= HASHES_PER_SCHEMA) known.clear();
    const text = `${flowSchema}\u0000${distinguisher}`;
    hash = (fnv1a(text, FNV_OFFSET) & 0x1fffff) * 0x100000000 + fnv1a(text, FNV_OFFSET ^ 0x5bd1e995);
    known.set(distinguisher, hash);
  }
  return hash;
}
