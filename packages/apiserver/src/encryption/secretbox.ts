import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import type { ValueTransformer } from './transformer.js';

const NONCE = nacl.secretbox.nonceLength; // 24
const OVERHEAD = nacl.secretbox.overheadLength; // 16

/**
 * kube's secretbox provider (XSalsa20 and Poly1305, NaCl's secretbox, here TweetNaCl's): a random 24-byte nonce,
 * then the sealed box. The key is 32 bytes; no additional data is authenticated.
 */
export function secretboxTransformer(key: Uint8Array): ValueTransformer {
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
