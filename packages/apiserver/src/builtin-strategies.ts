import { goQuote, type KubeObject } from '@kapi/apimachinery';
import { configMapStrategy, secretStrategy } from './kinds/config-data.js';
import { BUILTIN_DEFAULTERS } from './kinds/defaulters.js';
import { namespaceStrategy } from './namespaces/strategy.js';
import type { GroupPlugin, Strategy } from './plugin.js';

/** Pods start Pending (kube's pod strategy sets the initial status) and DELETE answers with the pod. */
const podStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  returnDeletedObject: true,
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

/** kube's ValidateRoleBindingUpdate: a binding's roleRef never changes (delete and recreate the binding instead). */
const bindingStrategy: Strategy = {
  validateUpdate(obj: KubeObject, old: KubeObject) {
    const ref = (o: KubeObject) => (o as { roleRef?: { apiGroup?: string; kind?: string; name?: string } }).roleRef ?? {};
    const [now, before] = [ref(obj), ref(old)];
    if (now.apiGroup === before.apiGroup && now.kind === before.kind && now.name === before.name) return [];
    // Go prints the struct with %#v.
    const shown = `rbac.RoleRef{APIGroup:${goQuote(now.apiGroup ?? '')}, Kind:${goQuote(now.kind ?? '')}, Name:${goQuote(now.name ?? '')}}`;
    return [{ type: 'FieldValueInvalid', field: 'roleRef', message: `${shown}: cannot change roleRef` }];
  },
};

/** Strategies kube-apiserver gives built-in kinds, by `<group>/<kind>`; a plugin's own strategy wins. */
export const BUILTIN_STRATEGIES: Record<string, Strategy> = {
  '/Namespace': namespaceStrategy,
  'rbac.authorization.k8s.io/RoleBinding': bindingStrategy,
  'rbac.authorization.k8s.io/ClusterRoleBinding': bindingStrategy,
  '/Pod': podStrategy,
  '/Secret': secretStrategy,
  '/ConfigMap': configMapStrategy,
  '/Service': serviceStrategy(),
  '/ServiceAccount': { returnDeletedObject: true },
};

/**
 * The plugins with the built-in strategies filled in where a plugin brings none for a kind, and kube's defaulters
 * of the built-in types under the plugin's own.
 */
export function withBuiltinStrategies(plugins: readonly GroupPlugin[]): GroupPlugin[] {
  return plugins.map((plugin) => {
    const strategies = { ...plugin.strategies };
    for (const info of plugin.definition.resources) {
      const builtin = BUILTIN_STRATEGIES[`${info.group}/${info.kind}`];
      if (builtin && !strategies[info.kind]) strategies[info.kind] = builtin;
    }
    // Built-in types are keyed by their API version (`v1/Container`, `apps/v1/...`), which no other group shares,
    // and appear in other groups' kinds (a server with apps but not core still defaults Deployments' pods).
    return { ...plugin, strategies, defaulters: { ...BUILTIN_DEFAULTERS, ...plugin.defaulters } };
  });
}
