import { randomBytes } from 'node:crypto';
import { requireLazily } from '@kapi/apimachinery';
import type { ValueTransformer } from './transformer.js';

/** TweetNaCl, loaded when a secretbox key is first configured: a server without one does not load it. */
const tweetnacl = requireLazily<typeof import('tweetnacl')>(import.meta.url, 'tweetnacl');

const NONCE = 24; // nacl.secretbox.nonceLength
const OVERHEAD = 16; // nacl.secretbox.overheadLength

/**
 * kube's secretbox provider (XSalsa20 and Poly1305, NaCl's secretbox, here TweetNaCl's): a random 24-byte nonce,
 * then the sealed box. The key is 32 bytes; no additional data is authenticated.
 */
export function secretboxTransformer(key: Uint8Array): ValueTransformer {
  const nacl = tweetnacl();
  return {
    fromStorage(data) {
      if (data.length < NONCE + OVERHEAD) throw new Error('the stored data was shorter than the required size');
      const opened = nacl.secretbox.open(data.subarray(NONCE), data.subarray(0, NONCE), key);
      // kube's message for a box that does not open (wrong key or changed bytes).
      if (!opened) throw new Error('output array was not large enough for encryption');
      return { data: opened, stale: false };
    },
    toStorage(data) {
      const nonce = new Uint8Array(randomBytes(NONCE));
      const box = nacl.secretbox(data, nonce, key);
      const out = new Uint8Array(NONCE + box.length);
      out.set(nonce);
      out.set(box, NONCE);
      return out;
    },
  };
}
