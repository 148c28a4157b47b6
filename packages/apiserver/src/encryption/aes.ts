import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import type { ValueTransformer } from './transformer.js';

const BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;

const cipherName = (mode: 'cbc' | 'gcm', key: Uint8Array) => `aes-${key.length * 8}-${mode}` as const;

/**
 * kube's aescbc provider (aes.NewCBCTransformer): a random 16-byte IV, then the AES-CBC ciphertext of the value
 * with PKCS#7 padding. Nothing authenticates the value; kube recommends aesgcm or secretbox over it.
 */
export function aesCbcTransformer(key: Uint8Array): ValueTransformer {
  const name = cipherName('cbc', key);
  return {
    fromStorage(data) {
      if (data.length < BLOCK) throw new Error('the stored data was shorter than the required size');
      const body = data.subarray(BLOCK);
      if (body.length % BLOCK !== 0) throw new Error('the stored data is not a multiple of the block size');
      const decipher = createDecipheriv(name, key, data.subarray(0, BLOCK));
      decipher.setAutoPadding(false);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]);
      // PKCS#7, checked as kube checks it (a wrong key shows up here).
      const pad = plain.length > 0 ? plain[plain.length - 1] : 0;
      if (pad === 0 || pad > plain.length) throw new Error('invalid PKCS7 data (empty or not padded)');
      for (let i = plain.length - pad; i < plain.length; i++) {
        if (plain[i] !== pad) throw new Error('invalid padding on input');
      }
      return { data: new Uint8Array(plain.subarray(0, plain.length - pad)), stale: false };
    },
    toStorage(data) {
      const iv = randomBytes(BLOCK);
      const cipher = createCipheriv(name, key, iv);
      // Node pads with PKCS#7 by default: a full block of 16s when the value fills its last block, as kube does.
      return new Uint8Array(Buffer.concat([iv, cipher.update(data), cipher.final()]));
    },
  };
}

/**
 * kube's aesgcm provider (aes.NewGCMTransformer): a random 12-byte nonce, then the AES-GCM ciphertext and its
 * 16-byte tag, with the storage key as additional authenticated data.
 */
export function aesGcmTransformer(key: Uint8Array): ValueTransformer {
  const name = cipherName('gcm', key) as CipherGCMTypes;
  return {
    fromStorage(data, context) {
      if (data.length < GCM_NONCE) throw new Error('the stored data was shorter than the required size');
      if (data.length < GCM_NONCE + GCM_TAG) throw new Error('cipher: message authentication failed');
      const decipher = createDecipheriv(name, key, data.subarray(0, GCM_NONCE));
      decipher.setAAD(context);
      decipher.setAuthTag(data.subarray(data.length - GCM_TAG));
      try {
        const plain = Buffer.concat([decipher.update(data.subarray(GCM_NONCE, data.length - GCM_TAG)), decipher.final()]);
        return { data: new Uint8Array(plain), stale: false };
      } catch {
        // Go's crypto/cipher error for a wrong key, a changed value or a value moved to another key.
        throw new Error('cipher: message authentication failed');
      }
    },
    toStorage(data, context) {
      const nonce = randomBytes(GCM_NONCE);
      const cipher = createCipheriv(name, key, nonce);
      cipher.setAAD(context);
      const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
      return new Uint8Array(Buffer.concat([nonce, sealed, cipher.getAuthTag()]));
    },
  };
}
