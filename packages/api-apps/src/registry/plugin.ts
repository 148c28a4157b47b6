import { age, at, formatLabels, formatLabelSelector, int, isObj, listAt, selectorString, str, textAt, type TablePrinter, type TypeDefaulter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { CORE_DEFAULTERS, podTemplateCells } from '@kapi/api-core';
import { group } from '../generated/index.js';
import { workloadStrategy } from './workload-validation.js';

const template = podTemplateCells();

// kube's Go table printers of apps/v1 kinds (pkg/printers/internalversion/printers.go), as for `-o wide`.
const deployment: TablePrinter = {
  cells: {
    // spec.replicas is defaulted to 1 on the way in; an object stored without defaults reads the same
    Ready: (obj) => `${int(at(obj, 'status.readyReplicas'))}/${int(at(obj, 'spec.replicas'), 1)}`,
    'Up-to-date': (obj) => int(at(obj, 'status.updatedReplicas')),
    Available: (obj) => int(at(obj, 'status.availableReplicas')),
    Age: age,
    ...template,
    Selector: (obj) => selectorString(at(obj, 'spec.selector'), '<invalid>'),
  },
};

const replicaSet: TablePrinter = {
  cells: {
    Desired: (obj) => int(at(obj, 'spec.replicas'), 1),
    Current: (obj) => int(at(obj, 'status.replicas')),
    Ready: (obj) => int(at(obj, 'status.readyReplicas')),
    Age: age,
    ...template,
    Selector: (obj) => formatLabelSelector(at(obj, 'spec.selector')),
  },
};

const statefulSet: TablePrinter = {
  cells: {
    Ready: (obj) => `${int(at(obj, 'status.readyReplicas'))}/${int(at(obj, 'spec.replicas'), 1)}`,
    Age: age,
    ...template,
  },
};

const daemonSet: TablePrinter = {
  cells: {
    Desired: (obj) => int(at(obj, 'status.desiredNumberScheduled')),
    Current: (obj) => int(at(obj, 'status.currentNumberScheduled')),
    Ready: (obj) => int(at(obj, 'status.numberReady')),
    'Up-to-date': (obj) => int(at(obj, 'status.updatedNumberScheduled')),
    Available: (obj) => int(at(obj, 'status.numberAvailable')),
    'Node Selector': (obj) => formatLabels(at(obj, 'spec.template.spec.nodeSelector')),
    Age: age,
    ...template,
    Selector: (obj) => formatLabelSelector(at(obj, 'spec.selector')),
  },
};

/** printControllerRevision's CONTROLLER: `<kind>.<group>/<name>` of the controlling owner, `<none>` without one. */
function revisionController(obj: unknown): string {
  const owner = listAt(obj, 'metadata.ownerReferences').find((o) => at(o, 'controller') === true);
  if (!owner) return '<none>';
  const apiVersion = str(at(owner, 'apiVersion'));
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = str(at(owner, 'kind')).toLowerCase();
  return `${group ? `${kind}.${group}` : kind}/${str(at(owner, 'name'))}`;
}

const controllerRevision: TablePrinter = {
  cells: { Controller: revisionController, Revision: (obj) => int(at(obj, 'revision')), Age: age },
};

/** SetDefaults_Deployment's strategy: RollingUpdate, with 25% / 25% when that is the type. */
const deploymentStrategy: TypeDefaulter = (strategy) => {
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate' && !isObj(strategy.rollingUpdate)) strategy.rollingUpdate = {};
};

/** SetDefaults_DaemonSet's update strategy: a rolling update replaces one node's pod at a time. */
const daemonSetUpdateStrategy: TypeDefaulter = (strategy) => {
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type !== 'RollingUpdate') return;
  const rolling = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
  if (rolling.maxUnavailable === undefined) rolling.maxUnavailable = 1;
  if (rolling.maxSurge === undefined) rolling.maxSurge = 0;
};

/** SetDefaults_StatefulSet's update strategy: a rolling update from partition 0. */
const statefulSetUpdateStrategy: TypeDefaulter = (strategy) => {
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type !== 'RollingUpdate') return;
  const rolling = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
  if (rolling.partition === undefined) rolling.partition = 0;
};

/**
 * The apps group as a server installs it: its kinds' table printers and defaulters, with the core group's
 * defaulters for the pod templates its kinds embed (a server may serve apps without core).
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: {
    Deployment: workloadStrategy('deployment', 'ReplicaSet'),
    // kube's ValidateReplicaSetSpec says "deployment" too.
    ReplicaSet: workloadStrategy('deployment', 'ReplicaSet', { fieldLabels: { 'status.replicas': textAt('status.replicas') } }),
    DaemonSet: workloadStrategy('daemonset', 'DaemonSet'),
    StatefulSet: workloadStrategy('statefulset', 'StatefulSet'),
  },
  printers: { Deployment: deployment, ReplicaSet: replicaSet, StatefulSet: statefulSet, DaemonSet: daemonSet, ControllerRevision: controllerRevision },
  defaulters: {
    ...CORE_DEFAULTERS,
    'apps/v1/DeploymentStrategy': deploymentStrategy,
    'apps/v1/DaemonSetUpdateStrategy': daemonSetUpdateStrategy,
    'apps/v1/StatefulSetUpdateStrategy': statefulSetUpdateStrategy,
  },
};
