import { age, at, formatLabelSelector, int, isObj, selectorString, type TablePrinter, type TypeDefaulter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { CORE_DEFAULTERS, podTemplateCells } from '@kapi/api-core';
import { group } from '../generated/index.js';

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

/** SetDefaults_Deployment's strategy: RollingUpdate, with 25% / 25% when that is the type. */
const deploymentStrategy: TypeDefaulter = (strategy) => {
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate' && !isObj(strategy.rollingUpdate)) strategy.rollingUpdate = {};
};

/**
 * The apps group as a server installs it: its kinds' table printers and defaulters, with the core group's
 * defaulters for the pod templates its kinds embed (a server may serve apps without core).
 */
export const plugin: GroupPlugin = {
  definition: group,
  printers: { Deployment: deployment, ReplicaSet: replicaSet },
  defaulters: { ...CORE_DEFAULTERS, 'apps/v1/DeploymentStrategy': deploymentStrategy },
};
