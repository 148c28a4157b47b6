// kube-apiserver's apiVersionPriorities (pkg/controlplane/apiserver/aggregator.go): the group and version priorities
// of the Local APIServices it registers for its built-in group versions, which order discovery.

/** An APIService's groupPriorityMinimum and versionPriority. */
export interface Priority {
  group: number;
  version: number;
}

const table: Record<string, Priority> = {
  v1: { group: 18000, version: 1 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
};

/** apiregistration.k8s.io is listed first, as kube's aggregator lists it (its own discovery priority is above any APIService's). */
const APIREGISTRATION: Priority = { group: 20000, version: 15 };

/**
 * What kube's crdregistration controller gives a CustomResourceDefinition's group versions, and what any other
 * group version served in-process without a place in kube's table gets here: low group priority, versions by name.
 */
export const DEFAULT_PRIORITY: Priority = { group: 1000, version: 100 };

/** The priorities of a group version served in-process. */
export function localPriority(group: string, version: string): Priority {
  if (group === 'apiregistration.k8s.io') return APIREGISTRATION;
  return table[group ? `${group}/${version}` : version] ?? DEFAULT_PRIORITY;
}
