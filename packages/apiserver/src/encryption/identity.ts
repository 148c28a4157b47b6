import { bytes, type ValueTransformer } from './transformer.js';

/** `k8s:enc:` starts every encrypted value; JSON, YAML, CBOR and Protobuf (`k8s\0`) values never do. */
export const ENCRYPTED_PREFIX = bytes('k8s:enc:');

/**
 * kube's identity provider (NewEncryptCheckTransformer): values are stored as they are, and reading a value that
 * an encrypting provider wrote is an error, so a configuration that lists identity before an encrypting provider
 * still finds the right one.
 */
export function identityTransformer(): ValueTransformer {
  return {
    fromStorage(data) {
      if (data.length >= ENCRYPTED_PREFIX.length && ENCRYPTED_PREFIX.every((b, i) => data[i] === b)) {
        throw new Error('identity transformer tried to read encrypted data');
      }
      return { data, stale: false };
    },
    toStorage: (data) => data,
  };
}
