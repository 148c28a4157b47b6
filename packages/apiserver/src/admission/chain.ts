import { newBadRequest } from '@kapi/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

/** An ordered admission chain (k8s.io/apiserver admission/chain.go): all mutations, then all validations. */
export interface AdmissionChain {
  /** Runs every plugin's `mutate` for the operation, in order; the first rejection ends the request. */
  mutate(attrs: AdmissionAttributes): Promise<void>;
  /** Runs every plugin's `validate`, in order, on the final object. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}

const handles = (plugin: AdmissionPlugin, attrs: AdmissionAttributes) => {
  if (plugin.operations && !plugin.operations.includes(attrs.operation)) return false;
  if (attrs.dryRun && (plugin.sideEffects === 'Some' || plugin.sideEffects === 'Unknown')) {
    throw newBadRequest(`admission plugin "${plugin.name}" has side effects and does not support dry run`);
  }
  return true;
};

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
