import type { FlowSchema, PolicyRulesWithSubjects, PriorityLevelConfiguration, Subject } from '@kapi/api-flowcontrol';

/**
 * kube-apiserver 1.33's API Priority and Fairness configuration objects (k8s.io/apiserver
 * pkg/apis/flowcontrol/bootstrap): the mandatory ones (exempt, catch-all) the server always keeps as they are, and
 * the suggested ones it creates when missing and keeps up to date while their `apf.kubernetes.io/autoupdate-spec`
 * annotation is "true".
 */

/** The annotation that lets the server keep a configuration object's spec up to date. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
export const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1';

const ALL = ['*'];

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }));
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean) => ({
  verbs,
  apiGroups,
  resources,
  namespaces: ALL,
  clusterScope,
});
const everything = { resourceRules: [resourceRule(ALL, ALL, ALL, true)], nonResourceRules: [{ verbs: ALL, nonResourceURLs: ALL }] };

function flowSchema(name: string, priorityLevel: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', rules: PolicyRulesWithSubjects[]): FlowSchema {
  return {
    apiVersion: API_VERSION,
    kind: 'FlowSchema',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

function limited(name: string, shares: number, lendablePercent: number, queues?: [number, number, number]): PriorityLevelConfiguration {
  return {
    apiVersion: API_VERSION,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: queues
          ? { type: 'Queue', queuing: { queues: queues[0], handSize: queues[1], queueLengthLimit: queues[2] } }
          : { type: 'Reject' },
      },
    },
  };
}

export const MANDATORY_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [
  limited('catch-all', 5, 0),
  {
    apiVersion: API_VERSION,
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'exempt', annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
];

export const MANDATORY_FLOW_SCHEMAS: readonly FlowSchema[] = [
  flowSchema('exempt', 'exempt', 1, '', [{ subjects: groups('system:masters'), ...everything }]),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', [{ subjects: groups('system:unauthenticated', 'system:authenticated'), ...everything }]),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [
  limited('system', 30, 33, [64, 6, 50]),
  limited('node-high', 40, 25, [64, 6, 50]),
  limited('leader-election', 10, 0, [16, 4, 50]),
  limited('workload-high', 40, 50, [128, 6, 50]),
  limited('workload-low', 100, 90, [128, 6, 50]),
  limited('global-default', 20, 50, [128, 6, 50]),
];

const getCreateUpdate = ['get', 'create', 'update'];

export const SUGGESTED_FLOW_SCHEMAS: readonly FlowSchema[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', [{ subjects: groups('system:nodes'), ...everything }]),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', [
    {
      subjects: groups('system:nodes'),
      resourceRules: [resourceRule(ALL, [''], ['nodes', 'nodes/status'], true), resourceRule(ALL, ['coordination.k8s.io'], ['leases'], false)],
    },
  ]),
  flowSchema('probes', 'exempt', 2, '', [
    { subjects: groups('system:unauthenticated', 'system:authenticated'), nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] },
  ]),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', [
    {
      subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemServiceAccounts('*')],
      resourceRules: [resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], false)],
    },
  ]),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', [
    {
      subjects: kubeSystemServiceAccounts('*'),
      resourceRules: [
        resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], false),
        resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], false),
      ],
    },
  ]),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', [
    {
      subjects: [...users('system:kube-controller-manager'), ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
      resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], false)],
    },
  ]),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [{ subjects: users('system:kube-controller-manager'), ...everything }]),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', [{ subjects: users('system:kube-scheduler'), ...everything }]),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [{ subjects: kubeSystemServiceAccounts('*'), ...everything }]),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', [{ subjects: groups('system:serviceaccounts'), ...everything }]),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', [{ subjects: groups('system:unauthenticated', 'system:authenticated'), ...everything }]),
];
