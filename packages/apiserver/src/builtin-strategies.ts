import type { KubeObject } from '@kapi/apimachinery';
import { namespaceStrategy } from './namespaces/strategy.js';
import type { GroupPlugin, Strategy } from './plugin.js';

/** Pods start Pending (kube's pod strategy sets the initial status) and DELETE answers with the pod. */
const podStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  returnDeletedObject: true,
};

/** Secrets default to type Opaque (kube's SetDefaults_Secret). */
const secretStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.type ||= 'Opaque';
  },
  prepareForUpdate(obj: KubeObject) {
    obj.type ||= 'Opaque';
  },
};

/** Services start with an empty status (`loadBalancer: {}`, as Go writes the empty struct); DELETE answers with the service. */
function serviceStrategy(): Strategy {
  return {
    prepareForCreate(obj: KubeObject) {
      obj.status = { loadBalancer: {} };
    },
    returnDeletedObject: true,
  };
}

/** Strategies kube-apiserver gives built-in kinds, by `<group>/<kind>`; a plugin's own strategy wins. */
export const BUILTIN_STRATEGIES: Record<string, Strategy> = {
  '/Namespace': namespaceStrategy,
  '/Pod': podStrategy,
  '/Secret': secretStrategy,
  '/Service': serviceStrategy(),
  '/ServiceAccount': { returnDeletedObject: true },
};

/** The plugins with the built-in strategies filled in where a plugin brings none for a kind. */
export function withBuiltinStrategies(plugins: readonly GroupPlugin[]): GroupPlugin[] {
  return plugins.map((plugin) => {
    const strategies = { ...plugin.strategies };
    for (const info of plugin.definition.resources) {
      const builtin = BUILTIN_STRATEGIES[`${info.group}/${info.kind}`];
      if (builtin && !strategies[info.kind]) strategies[info.kind] = builtin;
    }
    return { ...plugin, strategies };
  });
}
