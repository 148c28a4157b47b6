export { loadEncryptionConfig, type EncryptionConfig } from './config.js';
export { transformingBackend } from './backend.js';
export { prefixTransformers, type FromStorage, type PrefixTransformer, type ValueTransformer } from './transformer.js';
export { aesCbcTransformer, aesGcmTransformer } from './aes.js';
export { secretboxTransformer } from './secretbox.js';
export { identityTransformer } from './identity.js';
export { encryptedStorage } from './resources.js';
