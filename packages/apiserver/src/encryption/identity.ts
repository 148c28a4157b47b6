import { bytes, hasPrefix, type ValueTransformer } from './transformer.js';

/** `k8s:enc:` starts every encrypted value; JSON, YAML, CBOR and Protobuf (`k8s\0`) values never do. */
export const ENCRYPTED_PREFIX = bytes('k8s:enc:');

/** kube's identity transformer's error for a value an encrypting provider wrote. */
export const ENCRYPTED_DATA_ERROR = 'identity transformer tried to read encrypted data';

/** Whether stored bytes were written by an encrypting provider. */
export const isEncrypted = (data: Uint8Array): boolean => hasPrefix(data, ENCRYPTED_PREFIX);

/**
 * kube's identity provider (NewEncryptCheckTransformer): values are stored as they are, and reading a value that
 * an encrypting provider wrote is an error, so a configuration that lists identity before an encrypting provider
 * still finds the right one.
 */
export function identityTransformer(): ValueTransformer {
  return {
    fromStorage(data) {
      if (isEncrypted(data)) throw new Error(ENCRYPTED_DATA_ERROR);
      return { data, stale: false };
    },
    toStorage: (data) => data,
  };
}
