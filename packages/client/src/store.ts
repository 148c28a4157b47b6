import type { KubeObject } from './types.js';

/** Values an object is found by in an index: its namespace, its owners' uids, a label's value. */
export type IndexFunc<T> = (object: T) => string[];

/** The key of an object in a store: `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKey(object: KubeObject): string {
  const { namespace, name = '' } = object.metadata ?? {};
  return namespace ? `${namespace}/${name}` : name;
}

/** The built-in indexes: by namespace, and by the uid of every owner. */
export const defaultIndexers: Record<string, IndexFunc<KubeObject>> = {
  namespace: (o) => (o.metadata?.namespace ? [o.metadata.namespace] : []),
  owner: (o) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid),
};

/** An informer's cache: the objects by key, with indexes kept as objects come and go. */
export class Store<T extends KubeObject> {
  private readonly objects = new Map<string, T>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private readonly indexers: Record<string, IndexFunc<T>>;

  constructor(
    indexers: Record<string, IndexFunc<T>> = {},
    /** Where an index function's error goes; the object is then left out of that index. */
    private readonly onIndexError: (error: unknown) => void = () => undefined,
  ) {
    this.indexers = { ...(defaultIndexers as Record<string, IndexFunc<T>>), ...indexers };
    for (const name of Object.keys(this.indexers)) this.indices.set(name, new Map());
  }

  get size(): number {
    return this.objects.size;
  }

  /** The object of a key (`namespace/name` or `name`). */
  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  /** The object of a name, in a namespace for namespaced objects. */
  getByName(name: string, namespace?: string): T | undefined {
    return this.objects.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.objects.values()];
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }

  /** The objects whose index `name` holds `value`: `byIndex('namespace', 'shop')`, `byIndex('owner', uid)`. */
  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index "${name}"; indexes: ${[...this.indices.keys()].join(', ')}`);
    return [...(index.get(value) ?? [])].map((k) => this.objects.get(k)!).filter(Boolean);
  }

  /** Stores the object, returning the one it replaced. */
  upsert(object: T): T | undefined {
    const key = objectKey(object);
    const old = this.objects.get(key);
    if (old) this.unindex(key, old);
    this.objects.set(key, object);
    this.index(key, object);
    return old;
  }

  /** Removes the object of the key, returning it. */
  delete(key: string): T | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.objects.delete(key);
    return old;
  }

  /** Calls `fn` with every index and each value the object has in it (none for an index whose function throws). */
  private eachIndexValue(object: T, fn: (index: Map<string, Set<string>>, value: string) => void): void {
    for (const [name, indexFunc] of Object.entries(this.indexers)) {
      let values: string[];
      try {
        values = indexFunc(object);
      } catch (error) {
        this.onIndexError(error);
        continue;
      }
      const index = this.indices.get(name)!;
      for (const value of values) fn(index, value);
    }
  }

  private index(key: string, object: T): void {
    this.eachIndexValue(object, (index, value) => {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    });
  }

  private unindex(key: string, object: T): void {
    this.eachIndexValue(object, (index, value) => {
      const keys = index.get(value);
      keys?.delete(key);
      if (keys?.size === 0) index.delete(value);
    });
  }
}
