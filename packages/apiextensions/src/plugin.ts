import { group } from '@kapi/api-apiextensions';
import type { GroupPlugin } from '@kapi/apiserver';
import { createCRDController } from './crd/controller.js';
import { crdDefaulters } from './crd/defaults.js';
import { crdStrategy, type CRDValidation } from './crd/strategy.js';
import { crdValidation } from './validation/index.js';

/**
 * CustomResourceDefinitions for a Kapi server (apiextensions-apiserver's part of kube-apiserver): serves
 * `apiextensions.k8s.io/v1` and, for each accepted CRD, its custom resources on every path shape, in discovery and
 * OpenAPI, while the server runs. Add it to `createApiServer({ plugins })`.
 */
export function apiextensionsPlugin(options: { validation?: CRDValidation } = {}): GroupPlugin {
  return {
    definition: group,
    strategies: { CustomResourceDefinition: crdStrategy(options.validation ?? crdValidation) },
    defaulters: crdDefaulters,
    install(host) {
      const entry = host.registry.byKind('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition');
      if (!entry) throw new Error('apiextensions.k8s.io/v1 CustomResourceDefinition is not installed');
      const controller = createCRDController(host, entry);
      // CRDs stored earlier are served before the server is ready, then every change is followed.
      host.onStart(() => controller.sync());
      host.onObjectsChange(entry, () => void controller.sync());
      host.onStop(() => controller.stop());
    },
  };
}

/** The plugin with its defaults, for `plugins: [..., plugin]`. */
export const plugin: GroupPlugin = apiextensionsPlugin();
