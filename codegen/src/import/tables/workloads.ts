import { AGE, CONTAINERS, containerColumns, type KindTable } from './common.js';

/** apps, batch, autoscaling and policy kinds, by `<group>/<kind>`. */
export const WORKLOADS_TABLES: Record<string, KindTable> = {
  'apps/Deployment': {
    allowCreateOnUpdate: false,
    shortNames: ['deploy'],
    categories: ['all'],
    printerColumns: [
      {
        name: 'Ready',
        type: 'string',
        jsonPath: '.status.readyReplicas',
        description: 'Number of the pod with ready state.',
        computed: 'kubectl shows <ready>/<desired> ("2/3"); this column is the ready count.',
      },
      { name: 'Up-to-date', type: 'integer', jsonPath: '.status.updatedReplicas' },
      { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
      AGE,
      ...CONTAINERS,
    ],
  },
  'apps/ReplicaSet': {
    allowCreateOnUpdate: false,
    shortNames: ['rs'],
    categories: ['all'],
    printerColumns: [
      { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Current', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
      AGE,
      ...CONTAINERS,
    ],
  },
  'policy/PodDisruptionBudget': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    shortNames: ['pdb'],
    printerColumns: [
      { name: 'Min Available', type: 'string', jsonPath: '.spec.minAvailable' },
      { name: 'Max Unavailable', type: 'string', jsonPath: '.spec.maxUnavailable' },
      { name: 'Allowed Disruptions', type: 'integer', jsonPath: '.status.disruptionsAllowed' },
      AGE,
    ],
  },
  'apps/StatefulSet': {
    allowCreateOnUpdate: false,
    shortNames: ['sts'],
    categories: ['all'],
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.readyReplicas', description: 'Number of the pod with ready state.', computed: 'kubectl shows <ready>/<desired> ("2/3"); this column is the ready count.' },
      AGE,
      ...CONTAINERS.slice(0, 2),
    ],
  },
  'apps/DaemonSet': {
    allowCreateOnUpdate: false,
    shortNames: ['ds'],
    categories: ['all'],
    printerColumns: [
      { name: 'Desired', type: 'integer', jsonPath: '.status.desiredNumberScheduled' },
      { name: 'Current', type: 'integer', jsonPath: '.status.currentNumberScheduled' },
      { name: 'Ready', type: 'integer', jsonPath: '.status.numberReady' },
      { name: 'Up-to-date', type: 'integer', jsonPath: '.status.updatedNumberScheduled' },
      { name: 'Available', type: 'integer', jsonPath: '.status.numberAvailable' },
      { name: 'Node Selector', type: 'string', jsonPath: '.spec.template.spec.nodeSelector', computed: 'kubectl shows k=v pairs or <none>; this column is the map.' },
      AGE,
      ...CONTAINERS,
    ],
  },
  'apps/ControllerRevision': {
    allowCreateOnUpdate: false,
    printerColumns: [
      { name: 'Controller', type: 'string', jsonPath: '.metadata.ownerReferences[?(@.controller==true)].name', description: 'Controller of the object', computed: 'kubectl shows kind.group/name of the controller; this column is the name.' },
      { name: 'Revision', type: 'integer', jsonPath: '.revision' },
      AGE,
    ],
  },
  'batch/Job': {
    allowCreateOnUpdate: false,
    categories: ['all'],
    printerColumns: [
      { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.status=="True")].type', description: 'Status of the job.', computed: 'kubectl shows Running, Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet from the conditions; this column lists the true conditions.' },
      { name: 'Completions', type: 'string', jsonPath: '.status.succeeded', description: 'The completion status of the job as <succeeded>/<completions>.', computed: 'kubectl shows <succeeded>/<completions>; this column is the succeeded count.' },
      { name: 'Duration', type: 'string', jsonPath: '.status.completionTime', description: 'Time required to complete the job.', computed: 'kubectl shows the time from start to completion (or to now); this column is the completion time.' },
      AGE,
      ...CONTAINERS,
    ],
  },
  'batch/CronJob': {
    allowCreateOnUpdate: false,
    shortNames: ['cj'],
    categories: ['all'],
    printerColumns: [
      { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
      { name: 'Timezone', type: 'string', jsonPath: '.spec.timeZone' },
      { name: 'Suspend', type: 'boolean', jsonPath: '.spec.suspend' },
      { name: 'Active', type: 'integer', jsonPath: '.status.active', computed: 'kubectl shows the number of active jobs; this column is the list.' },
      { name: 'Last Schedule', type: 'date', jsonPath: '.status.lastScheduleTime' },
      AGE,
      ...containerColumns('.spec.jobTemplate.spec.template.spec'),
      { name: 'Selector', type: 'string', jsonPath: '.spec.jobTemplate.spec.selector', priority: 1, computed: 'kubectl shows the selector in its string form; this column is the selector object.' },
    ],
  },
  'autoscaling/HorizontalPodAutoscaler': {
    allowCreateOnUpdate: false,
    shortNames: ['hpa'],
    categories: ['all'],
    printerColumns: [
      { name: 'Reference', type: 'string', jsonPath: '.spec.scaleTargetRef.name', computed: 'kubectl shows Kind/name of the target; this column is the name.' },
      { name: 'Targets', type: 'string', jsonPath: '.spec.metrics[*].type', description: 'The metrics and their targets.', computed: 'kubectl shows current/target of each metric ("cpu: 40%/80%"); this column lists the metric types.' },
      { name: 'MinPods', type: 'string', jsonPath: '.spec.minReplicas' },
      { name: 'MaxPods', type: 'string', jsonPath: '.spec.maxReplicas' },
      { name: 'Replicas', type: 'string', jsonPath: '.status.currentReplicas' },
      AGE,
    ],
  },
};
