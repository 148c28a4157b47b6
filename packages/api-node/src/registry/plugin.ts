import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { runtimeClassAdmission } from './runtime-class.js';

/**
 * The node.k8s.io group as a server installs it: RuntimeClasses, and kube's RuntimeClass admission for the Pods that
 * name one (install `@kapi/api-core` too).
 */
export const plugin: GroupPlugin = {
  definition: group,
  install(host) {
    const entry = host.registry.byKind('node.k8s.io', 'v1', 'RuntimeClass');
    if (entry) host.addAdmission(runtimeClassAdmission(host, entry));
  },
};
