import type { StorageBackend } from '@kapi/storage';
import { byKeyPrefix, type ResourceEntry } from '../registry/resources.js';
import { transformingBackend } from './backend.js';
import type { EncryptionConfig } from './config.js';
import type { ValueTransformer } from './transformer.js';

/**
 * The server's storage with encryption at rest: each resource's values go through the transformer the
 * configuration gives its group and resource. A key is matched to its resource by the collection prefixes
 * (`/registry/secrets/`, `/registry/apps/deployments/`); keys of no served resource pass through unchanged.
 */
export function encryptedStorage(backend: StorageBackend, entries: readonly ResourceEntry[], config: EncryptionConfig): StorageBackend {
  const byPrefix = new Map<string, ValueTransformer>();
  for (const entry of entries) byPrefix.set(entry.keyPrefix, config.transformerFor(entry.info.group, entry.info.plural));
  return transformingBackend(backend, (key) => byKeyPrefix(byPrefix, key));
}
