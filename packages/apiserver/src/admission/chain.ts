import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

/** An ordered admission chain (k8s.io/apiserver admission/chain.go): all mutations, then all validations. */
export interface AdmissionChain {
  /** Runs every plugin's `mutate` for the operation, in order; the first rejection ends the request. */
  mutate(attrs: AdmissionAttributes): Promise<void>;
  /** Runs every plugin's `validate`, in order, on the final object. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}

const handles = (plugin: AdmissionPlugin, attrs: AdmissionAttributes) =>
  !plugin.operations || plugin.operations.includes(attrs.operation);

export function createAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  return {
    async mutate(attrs) {
      for (const plugin of plugins) if (plugin.mutate && handles(plugin, attrs)) await plugin.mutate(attrs);
    },
    async validate(attrs) {
      for (const plugin of plugins) if (plugin.validate && handles(plugin, attrs)) await plugin.validate(attrs);
    },
  };
}
