/**
 * Value transformers (k8s.io/apiserver storage/value): what stands between an object's serialized bytes and the
 * bytes a storage backend keeps. Encryption at rest is a chain of them, chosen by each value's prefix.
 */

/** The result of reading a stored value back. */
export interface FromStorage {
  data: Uint8Array;
  /**
   * The value was not written by the transformer that writes now (an older key or provider): an update must write
   * it again even when the object did not change, which is how `kubectl replace` re-encrypts.
   */
  stale: boolean;
}

/**
 * Turns serialized objects into stored bytes and back (kube's value.Transformer). `context` is the authenticated
 * data (the storage key): an AEAD cipher binds the value to it, so a value copied under another key fails to read.
 * Both methods throw an Error with kube's message when they cannot transform.
 */
export interface ValueTransformer {
  fromStorage(data: Uint8Array, context: Uint8Array): FromStorage;
  toStorage(data: Uint8Array, context: Uint8Array): Uint8Array;
}

/** A transformer and the prefix it owns in stored values (empty for the identity transformer). */
export interface PrefixTransformer {
  prefix: Uint8Array;
  transformer: ValueTransformer;
}

const encoder = new TextEncoder();
export const bytes = (text: string): Uint8Array => encoder.encode(text);

export function hasPrefix(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * kube's NewPrefixTransformers: the first transformer writes, prefixing its output; a read goes to the first
 * transformer whose prefix the value carries, and is stale unless that is the first. A matching transformer that
 * fails does not end the search (two aescbc providers share a prefix while a key is rotated); an empty prefix
 * (identity) that fails is skipped silently. When nothing reads the value, the errors of the transformers that
 * matched are reported, else `noMatch`.
 */
export function prefixTransformers(noMatch: string, transformers: PrefixTransformer[]): ValueTransformer {
  if (transformers.length === 0) throw new Error('at least one transformer is required');
  return {
    fromStorage(data, context) {
      const errors: string[] = [];
      for (const [i, { prefix, transformer }] of transformers.entries()) {
        if (!hasPrefix(data, prefix)) continue;
        let result: FromStorage;
        try {
          result = transformer.fromStorage(data.subarray(prefix.length), context);
        } catch (err) {
          if (prefix.length > 0) errors.push((err as Error).message);
          continue;
        }
        return { data: result.data, stale: result.stale || i !== 0 };
      }
      // kube's errors.Reduce(NewAggregate(errs)): one error as itself, several as "[a, b]".
      if (errors.length === 1) throw new Error(errors[0]);
      if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
      throw new Error(noMatch);
    },
    toStorage(data, context) {
      const { prefix, transformer } = transformers[0];
      const out = transformer.toStorage(data, context);
      const result = new Uint8Array(prefix.length + out.length);
      result.set(prefix);
      result.set(out, prefix.length);
      return result;
    },
  };
}
