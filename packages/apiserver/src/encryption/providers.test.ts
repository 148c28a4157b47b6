import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesCbcTransformer, aesGcmTransformer } from './aes.js';
import { identityTransformer } from './identity.js';
import { secretboxTransformer } from './secretbox.js';
import { bytes, prefixTransformers } from './transformer.js';

const KEY = bytes('/registry/secrets/default/s');
const text = (b: Uint8Array) => Buffer.from(b).toString();
const hex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('encryption providers', () => {
  it('aescbc: a random IV, then AES-CBC with PKCS#7 padding, as kube lays it out', () => {
    const key = randomBytes(32);
    const t = aesCbcTransformer(key);
    for (const plain of ['', 'a', '0123456789abcdef', '{"kind":"Secret","data":{"k":"djE="}}']) {
      const sealed = t.toStorage(bytes(plain), KEY);
      // One padding byte at least: a value that fills its blocks gets a whole block of 16s.
      expect(sealed.length).toBe(16 + (Math.floor(plain.length / 16) + 1) * 16);
      const decipher = createDecipheriv('aes-256-cbc', key, sealed.subarray(0, 16));
      expect(Buffer.concat([decipher.update(sealed.subarray(16)), decipher.final()]).toString()).toBe(plain);
      expect(text(t.fromStorage(sealed, KEY).data)).toBe(plain);
    }
    // Two writes of one value differ (fresh IVs).
    expect(Buffer.compare(t.toStorage(bytes('x'), KEY), t.toStorage(bytes('x'), KEY))).not.toBe(0);
  });

  it('aescbc reports what kube reports for bad values', () => {
    const t = aesCbcTransformer(randomBytes(16));
    expect(() => t.fromStorage(bytes('short'), KEY)).toThrow('the stored data was shorter than the required size');
    expect(() => t.fromStorage(new Uint8Array(20), KEY)).toThrow('the stored data is not a multiple of the block size');
    // A value sealed under another key. Fixed keys and IV: with random ones the wrong key's plaintext ends in valid
    // padding about once in 256 runs, and the read then fails elsewhere or not at all.
    const [key, otherKey, iv] = [Buffer.alloc(16, 1), Buffer.alloc(16, 2), Buffer.alloc(16, 3)];
    const cipher = createCipheriv('aes-128-cbc', otherKey, iv);
    const other = Buffer.concat([iv, cipher.update('{"a":1}'), cipher.final()]);
    expect(() => aesCbcTransformer(key).fromStorage(other, KEY)).toThrow(/invalid P(KCS7 data|adding on input)|invalid padding/);
  });

  it('aesgcm: a 12-byte nonce, ciphertext and tag, bound to the storage key', () => {
    for (const size of [16, 24, 32]) {
      const key = randomBytes(size);
      const t = aesGcmTransformer(key);
      const sealed = t.toStorage(bytes('{"a":1}'), KEY);
      expect(sealed.length).toBe(12 + 7 + 16);
      const decipher = createDecipheriv(`aes-${size * 8}-gcm` as CipherGCMTypes, key, sealed.subarray(0, 12));
      decipher.setAAD(KEY);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      expect(Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString()).toBe('{"a":1}');
      expect(text(t.fromStorage(sealed, KEY).data)).toBe('{"a":1}');
      // Moved under another key, or changed, it no longer reads.
      expect(() => t.fromStorage(sealed, bytes('/registry/secrets/default/other'))).toThrow('cipher: message authentication failed');
      const changed = sealed.slice();
      changed[14] ^= 1;
      expect(() => t.fromStorage(changed, KEY)).toThrow('cipher: message authentication failed');
    }
  });

  it("secretbox: a 24-byte nonce, then NaCl's box (the reference test vector)", () => {
    const key = randomBytes(32);
    const t = secretboxTransformer(key);
    const sealed = t.toStorage(bytes('{"a":1}'), KEY);
    expect(sealed.length).toBe(24 + 16 + 7);
    expect(text(t.fromStorage(sealed, KEY).data)).toBe('{"a":1}');
    expect(() => secretboxTransformer(randomBytes(32)).fromStorage(sealed, KEY)).toThrow('output array was not large enough for encryption');
    expect(() => t.fromStorage(new Uint8Array(39), KEY)).toThrow('the stored data was shorter than the required size');

    // NaCl's tests/secretbox.c vector: what Go's golang.org/x/crypto/nacl/secretbox (kube's) reads too.
    const naclKey = hex('1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389');
    const nonce = hex('69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37');
    const box = hex(`f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476fb8c531a1186a
      c0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae90224368517acfea
      bd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74e355a5`);
    const message = hex(`be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a1ac728d45e6c6129
      6cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde048977eb48f59f
      fd4924ca1c60902e52f0a089bc76897040e082f937763848645e0705`);
    const stored = new Uint8Array([...nonce, ...box]);
    expect(Buffer.from(secretboxTransformer(naclKey).fromStorage(stored, KEY).data).equals(Buffer.from(message))).toBe(true);
  });

  it('identity stores values as they are and refuses encrypted ones', () => {
    const t = identityTransformer();
    expect(text(t.toStorage(bytes('{}'), KEY))).toBe('{}');
    expect(text(t.fromStorage(bytes('{}'), KEY).data)).toBe('{}');
    expect(() => t.fromStorage(bytes('k8s:enc:aescbc:v1:key1:xxxx'), KEY)).toThrow('identity transformer tried to read encrypted data');
  });

  it('prefix transformers: the first writes; reads go by prefix, stale unless first; kube\'s errors otherwise', () => {
    const k1 = aesCbcTransformer(randomBytes(32));
    const k2 = aesCbcTransformer(randomBytes(32));
    const keys = (...list: [string, typeof k1][]) => prefixTransformers('no matching key was found for the provided AES transformer', list.map(([name, t]) => ({ prefix: bytes(`${name}:`), transformer: t })));
    const provider = (t: ReturnType<typeof keys>) => ({ prefix: bytes('k8s:enc:aescbc:v1:'), transformer: t });
    const identity = { prefix: new Uint8Array(0), transformer: identityTransformer() };

    const old = prefixTransformers('no matching prefix found', [provider(keys(['key1', k1])), identity]);
    const sealed = old.toStorage(bytes('{"v":1}'), KEY);
    expect(text(sealed).startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    expect(old.fromStorage(sealed, KEY)).toMatchObject({ stale: false });
    expect(old.fromStorage(bytes('{"plain":true}'), KEY)).toMatchObject({ stale: true });

    // Rotation: key2 first writes, key1 still reads (stale), then key1 alone is gone.
    const rotating = prefixTransformers('no matching prefix found', [provider(keys(['key2', k2], ['key1', k1])), identity]);
    expect(rotating.fromStorage(sealed, KEY)).toMatchObject({ stale: true });
    expect(text(rotating.fromStorage(sealed, KEY).data)).toBe('{"v":1}');
    expect(text(rotating.toStorage(bytes('x'), KEY)).startsWith('k8s:enc:aescbc:v1:key2:')).toBe(true);
    const rotated = prefixTransformers('no matching prefix found', [provider(keys(['key2', k2])), identity]);
    expect(() => rotated.fromStorage(sealed, KEY)).toThrow(/^no matching key was found for the provided AES transformer$/);

    // A value of a provider the configuration does not have.
    const gcmOnly = prefixTransformers('no matching prefix found', [{ prefix: bytes('k8s:enc:aesgcm:v1:'), transformer: keys(['key1', aesGcmTransformer(randomBytes(32))]) }]);
    expect(() => gcmOnly.fromStorage(sealed, KEY)).toThrow(/^no matching prefix found$/);
  });
});
