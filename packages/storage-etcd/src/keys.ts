import { newInvalidObjectError } from '@kapi/storage';

/** Kapi's keys all start with this (docs/architecture.md, conventions); `--etcd-prefix` takes its place in etcd. */
export const KEY_ROOT = '/registry';

/**
 * Maps Kapi's keys into etcd under `--etcd-prefix`, as kube-apiserver lays them out: Kapi's
 * `/registry/pods/ns/name` is etcd's `<prefix>/pods/ns/name`, so with the default prefix `/registry` the keys
 * are kube-apiserver's own.
 */
export class KeySpace {
  private readonly prefixBytes: Buffer;

  constructor(readonly prefix: string) {
    this.prefixBytes = Buffer.from(prefix);
  }

  /** The etcd key of a Kapi key; InvalidObject for keys outside `/registry`. */
  toEtcd(key: string): Buffer {
    if (key !== KEY_ROOT && !key.startsWith(`${KEY_ROOT}/`)) {
      throw newInvalidObjectError(key, `keys must start with ${KEY_ROOT}/`);
    }
    return Buffer.from(this.prefix + key.slice(KEY_ROOT.length));
  }

  /** The Kapi key of an etcd key under the prefix. */
  fromEtcd(key: Buffer): string {
    return KEY_ROOT + key.subarray(this.prefixBytes.length).toString('utf8');
  }

  /**
   * The etcd range [key, rangeEnd) of a Kapi key prefix. A prefix of `/registry` itself (such as `/`) covers
   * everything under `--etcd-prefix`; one that leaves `/registry` is InvalidObject.
   */
  rangeOf(prefix: string, startKey?: string): { key: Buffer; rangeEnd: Buffer } {
    const mapped = KEY_ROOT.startsWith(prefix) ? this.prefixBytes : this.toEtcd(prefix);
    // An empty etcd prefix (`--etcd-prefix=/`) ranges over every key: etcd spells that ['\0', '\0').
    const base = mapped.length > 0 ? mapped : Buffer.from([0]);
    const rangeEnd = prefixEnd(mapped);
    const from = startKey !== undefined && startKey > prefix ? this.startBound(startKey, base, rangeEnd) : base;
    return { key: Buffer.compare(from, base) < 0 ? base : from, rangeEnd };
  }

  /** Where a start key (from a continue token) falls in etcd's key space. */
  private startBound(startKey: string, base: Buffer, rangeEnd: Buffer): Buffer {
    if (startKey.startsWith(KEY_ROOT)) return Buffer.from(this.prefix + startKey.slice(KEY_ROOT.length));
    return startKey < KEY_ROOT ? base : rangeEnd;
  }
}

/** etcd's prefix range end: the key after every key starting with `prefix`; `\0` (no end) when there is none. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i] += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** Normalizes `--etcd-prefix`: a leading slash, no trailing one (kube-apiserver joins it with `/`). */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
