import { describe, expect, it } from 'vitest';
import { guaranteedUpdate, type StorageCodec } from './guaranteed-update.js';
import { createMemoryBackend } from './memory/index.js';
import type { StorageBackend } from './types.js';

const codec: StorageCodec<string> = { decode: (kv) => Buffer.from(kv.value).toString(), encode: (s) => new TextEncoder().encode(s) };

describe('guaranteedUpdate', () => {
  it('writes nothing when the value is unchanged, unless the stored value is stale', async () => {
    const memory = createMemoryBackend();
    const created = await memory.create('/registry/k', codec.encode('v'));
    const same = await guaranteedUpdate(memory, '/registry/k', codec, (current) => current!);
    expect('kv' in same && same.kv.modRevision).toBe(created.modRevision);

    // A wrapper (encryption at rest) reports the value as written with an old key: the same bytes are written again.
    const stale: StorageBackend = { ...memory, get: async (key, options) => {
      const result = await memory.get(key, options);
      return result.kv ? { ...result, kv: { ...result.kv, stale: true } } : result;
    } };
    const rewritten = await guaranteedUpdate(stale, '/registry/k', codec, (current) => current!);
    expect('kv' in rewritten && rewritten.kv.modRevision).toBeGreaterThan(created.modRevision);
    expect('obj' in rewritten && rewritten.obj).toBe('v');
  });
});
