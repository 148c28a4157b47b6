import type { StorageBackend } from '@kapi/storage';
import type { ResourceRegistry } from '../registry/resources.js';
import { transformingBackend } from './backend.js';
import type { EncryptionConfig } from './config.js';
import type { ValueTransformer } from './transformer.js';

/**
 * The server's storage with encryption at rest: each resource's values go through the transformer the
 * configuration gives its group and resource. A key is matched to its resource by the collection prefixes
 * (`/registry/secrets/`, `/registry/apps/deployments/`) of the resources served at the time (resources installed
 * later, custom resources among them, included); keys of no served resource pass through unchanged. A kind stored
 * with another group's resource (GroupPlugin.storedAs: events.k8s.io Events in core `events`) is encrypted as
 * that resource, as kube's storage factory does for cohabiting resources.
 */
export function encryptedStorage(backend: StorageBackend, registry: ResourceRegistry, config: EncryptionConfig): StorageBackend {
  const byPrefix = new Map<string, ValueTransformer>();
  registry.onChange(() => byPrefix.clear());
  return transformingBackend(backend, (key) => {
    const entry = registry.forKey(key);
    if (!entry) return undefined;
    let transformer = byPrefix.get(entry.keyPrefix);
    if (!transformer) byPrefix.set(entry.keyPrefix, (transformer = config.transformerFor(entry.storedAs.group, entry.storedAs.resource)));
    return transformer;
  });
}
