import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { configMapStrategy, secretStrategy } from './config-data.js';
import { CORE_DEFAULTERS } from './defaulters.js';
import { evictionAction } from './eviction.js';
import { CORE_PRINTERS } from './printers.js';
import { podStrategy, serviceAccountStrategy, serviceStrategy } from './strategies.js';

/**
 * The core group as a server installs it (`createApiServer({ plugins: [plugin, ...] })`): its kinds' strategies,
 * table printers and defaulters, and the pods/eviction subresource (kube's pkg/registry/core).
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: {
    Pod: podStrategy,
    Service: serviceStrategy,
    ServiceAccount: serviceAccountStrategy,
    ConfigMap: configMapStrategy,
    Secret: secretStrategy,
  },
  printers: CORE_PRINTERS,
  defaulters: CORE_DEFAULTERS,
  install(host) {
    host.addSubresource({ group: '', resource: 'pods', subresource: 'eviction' }, evictionAction(host));
  },
};
