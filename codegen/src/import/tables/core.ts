import { AGE, CONTAINERS, containerColumns, type KindTable } from './common.js';

/** core/v1 kinds, by `/<kind>`. */
export const CORE_TABLES: Record<string, KindTable> = {
  '/Namespace': {
    shortNames: ['ns'],
    nameValidation: 'DNS1123Label',
    printerColumns: [{ name: 'Status', type: 'string', jsonPath: '.status.phase', description: 'The status of the namespace' }, AGE],
  },
  '/ConfigMap': {
    shortNames: ['cm'],
    printerColumns: [
      {
        name: 'Data',
        type: 'integer',
        jsonPath: '.data',
        description: 'Number of data in configmap',
        computed: 'kubectl shows the number of keys in data and binaryData; this column is the data map.',
      },
      AGE,
    ],
  },
  '/Secret': {
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.type' },
      {
        name: 'Data',
        type: 'integer',
        jsonPath: '.data',
        description: 'Number of data in secret',
        computed: 'kubectl shows the number of keys in data; this column is the data map.',
      },
      AGE,
    ],
  },
  '/ServiceAccount': {
    shortNames: ['sa'],
    printerColumns: [
      {
        name: 'Secrets',
        type: 'integer',
        jsonPath: '.secrets',
        computed: 'kubectl shows the number of secrets; this column is the list.',
      },
      AGE,
    ],
  },
  '/Event': {
    shortNames: ['ev'],
    printerColumns: [
      {
        name: 'Last Seen',
        type: 'date',
        jsonPath: '.lastTimestamp',
        computed: 'kubectl falls back to eventTime and series.lastObservedTime when lastTimestamp is empty.',
      },
      { name: 'Type', type: 'string', jsonPath: '.type' },
      { name: 'Reason', type: 'string', jsonPath: '.reason' },
      {
        name: 'Object',
        type: 'string',
        jsonPath: '.involvedObject.name',
        description: 'The object that this event is about.',
        computed: 'kubectl shows kind/name of the involved object; this column is the name.',
      },
      { name: 'Subobject', type: 'string', jsonPath: '.involvedObject.fieldPath', priority: 1 },
      {
        name: 'Source',
        type: 'string',
        jsonPath: '.source.component',
        priority: 1,
        computed: 'kubectl shows "component, host"; this column is the component.',
      },
      { name: 'Message', type: 'string', jsonPath: '.message' },
      { name: 'First Seen', type: 'date', jsonPath: '.firstTimestamp', priority: 1 },
      { name: 'Count', type: 'integer', jsonPath: '.count', priority: 1 },
    ],
  },
  '/Pod': {
    shortNames: ['po'],
    categories: ['all'],
    printerColumns: [
      {
        name: 'Ready',
        type: 'string',
        jsonPath: '.status.containerStatuses[*].ready',
        description: 'The aggregate readiness state of this pod for accepting traffic.',
        computed: 'kubectl shows <ready containers>/<containers> ("1/2"); this column lists each container\'s ready flag.',
      },
      {
        name: 'Status',
        type: 'string',
        jsonPath: '.status.phase',
        description: 'The aggregate status of the containers in this pod.',
        computed: 'kubectl derives it from the phase, the pod\'s reason and the container states (CrashLoopBackOff, Terminating, ...); this column is the phase.',
      },
      {
        name: 'Restarts',
        type: 'string',
        jsonPath: '.status.containerStatuses[*].restartCount',
        description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
        computed: 'kubectl shows the sum and the time of the last restart ("3 (5m ago)"); this column lists each container\'s count.',
      },
      AGE,
      { name: 'IP', type: 'string', jsonPath: '.status.podIP', priority: 1 },
      { name: 'Node', type: 'string', jsonPath: '.spec.nodeName', priority: 1 },
      { name: 'Nominated Node', type: 'string', jsonPath: '.status.nominatedNodeName', priority: 1 },
      {
        name: 'Readiness Gates',
        type: 'string',
        jsonPath: '.spec.readinessGates[*].conditionType',
        priority: 1,
        description:
          'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True".',
        computed: 'kubectl shows <gates whose condition is True>/<gates>; this column lists the gates.',
      },
    ],
  },
  '/Service': {
    shortNames: ['svc'],
    nameValidation: 'DNS1035Label',
    categories: ['all'],
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'Cluster-IP', type: 'string', jsonPath: '.spec.clusterIP' },
      {
        name: 'External-IP',
        type: 'string',
        jsonPath: '.status.loadBalancer.ingress[*].ip',
        description: 'External IP addresses of the service.',
        computed: 'kubectl combines spec.externalIPs, spec.externalName and the load balancer ingress (<none>, <pending>); this column is the ingress IPs.',
      },
      {
        name: 'Port(s)',
        type: 'string',
        jsonPath: '.spec.ports[*].port',
        description: 'The ports exposed by the service.',
        computed: 'kubectl shows port[:nodePort]/protocol ("80:30080/TCP"); this column lists the ports.',
      },
      AGE,
      {
        name: 'Selector',
        type: 'string',
        jsonPath: '.spec.selector',
        priority: 1,
        computed: 'kubectl shows the selector in its string form (app=web); this column is the selector map.',
      },
    ],
  },
  '/Node': {
    shortNames: ['no'],
    printerColumns: [
      {
        name: 'Status',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Ready")].status',
        description: 'The status of the node.',
        computed: 'kubectl shows Ready, NotReady or Unknown from the Ready condition, plus SchedulingDisabled; this column is the Ready condition\'s status.',
      },
      {
        name: 'Roles',
        type: 'string',
        jsonPath: '.metadata.labels.kubernetes\\.io/role',
        description: 'The roles of the node.',
        computed: 'kubectl collects the node-role.kubernetes.io/<role> label keys and the kubernetes.io/role label; this column is the latter.',
      },
      AGE,
      { name: 'Version', type: 'string', jsonPath: '.status.nodeInfo.kubeletVersion' },
      {
        name: 'Internal-IP',
        type: 'string',
        jsonPath: '.status.addresses[?(@.type=="InternalIP")].address',
        priority: 1,
        description: 'The internal IP address of the node.',
      },
      {
        name: 'External-IP',
        type: 'string',
        jsonPath: '.status.addresses[?(@.type=="ExternalIP")].address',
        priority: 1,
        description: 'The external IP address of the node.',
      },
      { name: 'OS-Image', type: 'string', jsonPath: '.status.nodeInfo.osImage', priority: 1 },
      { name: 'Kernel-Version', type: 'string', jsonPath: '.status.nodeInfo.kernelVersion', priority: 1 },
      { name: 'Container-Runtime', type: 'string', jsonPath: '.status.nodeInfo.containerRuntimeVersion', priority: 1 },
    ],
  },
  '/Binding': {},
  '/ComponentStatus': {
    shortNames: ['cs'],
    // ComponentStatus is served but deprecated since 1.19, with no replacement and no removal release.
    deprecated: { in: '1.19' },
    printerColumns: [
      { name: 'Status', type: 'string', jsonPath: '.conditions[?(@.type=="Healthy")].status', description: 'Status of the component conditions', computed: 'kubectl shows Healthy or Unhealthy; this column is the Healthy condition\'s status.' },
      { name: 'Message', type: 'string', jsonPath: '.conditions[?(@.type=="Healthy")].message', description: 'Message of the component conditions' },
      { name: 'Error', type: 'string', jsonPath: '.conditions[?(@.type=="Healthy")].error', description: 'Error of the component conditions' },
    ],
  },
  '/Endpoints': {
    shortNames: ['ep'],
    printerColumns: [
      { name: 'Endpoints', type: 'string', jsonPath: '.subsets[*].addresses[*].ip', computed: 'kubectl shows up to three ip:port pairs and "+ N more..."; this column lists the addresses.' },
      AGE,
    ],
  },
  '/LimitRange': {
    shortNames: ['limits'],
    printerColumns: [{ name: 'Created At', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
  },
  '/PersistentVolume': {
    shortNames: ['pv'],
    printerColumns: [
      { name: 'Capacity', type: 'string', jsonPath: '.spec.capacity.storage', description: 'The storage capacity of the volume.' },
      { name: 'Access Modes', type: 'string', jsonPath: '.spec.accessModes', computed: 'kubectl abbreviates the modes (RWO,ROX); this column is the list.' },
      { name: 'Reclaim Policy', type: 'string', jsonPath: '.spec.persistentVolumeReclaimPolicy' },
      { name: 'Status', type: 'string', jsonPath: '.status.phase' },
      { name: 'Claim', type: 'string', jsonPath: '.spec.claimRef.name', computed: 'kubectl shows namespace/name of the claim; this column is the name.' },
      { name: 'StorageClass', type: 'string', jsonPath: '.spec.storageClassName', description: 'StorageClass of the pv' },
      { name: 'VolumeAttributesClass', type: 'string', jsonPath: '.spec.volumeAttributesClassName', description: 'VolumeAttributesClass of the pv' },
      { name: 'Reason', type: 'string', jsonPath: '.status.reason' },
      AGE,
      { name: 'VolumeMode', type: 'string', jsonPath: '.spec.volumeMode', priority: 1 },
    ],
  },
  '/PersistentVolumeClaim': {
    shortNames: ['pvc'],
    printerColumns: [
      { name: 'Status', type: 'string', jsonPath: '.status.phase' },
      { name: 'Volume', type: 'string', jsonPath: '.spec.volumeName' },
      { name: 'Capacity', type: 'string', jsonPath: '.status.capacity.storage', description: 'The storage capacity of the claim\'s volume.' },
      { name: 'Access Modes', type: 'string', jsonPath: '.status.accessModes', computed: 'kubectl abbreviates the modes (RWO,ROX); this column is the list.' },
      { name: 'StorageClass', type: 'string', jsonPath: '.spec.storageClassName', description: 'StorageClass of the pvc' },
      { name: 'VolumeAttributesClass', type: 'string', jsonPath: '.spec.volumeAttributesClassName', description: 'VolumeAttributesClass of the pvc' },
      AGE,
      { name: 'VolumeMode', type: 'string', jsonPath: '.spec.volumeMode', priority: 1 },
    ],
  },
  '/PodTemplate': {
    printerColumns: [
      ...containerColumns('.template.spec', 0),
      { name: 'Pod Labels', type: 'string', jsonPath: '.template.metadata.labels', description: 'The labels for the pod template.', computed: 'kubectl shows the labels as k=v pairs; this column is the map.' },
    ],
  },
  '/ReplicationController': {
    shortNames: ['rc'],
    categories: ['all'],
    printerColumns: [
      { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Current', type: 'integer', jsonPath: '.status.replicas' },
      { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
      AGE,
      ...CONTAINERS.slice(0, 2),
      { name: 'Selector', type: 'string', jsonPath: '.spec.selector', priority: 1, computed: 'kubectl shows the selector in its string form (app=web); this column is the selector map.' },
    ],
  },
  '/ResourceQuota': {
    shortNames: ['quota'],
    printerColumns: [
      AGE,
      { name: 'Request', type: 'string', jsonPath: '.status.used', description: 'Request represents a minimum amount of cpu/memory that a container may consume.', computed: 'kubectl shows used/hard of each requests.* resource; this column is the used map.' },
      { name: 'Limit', type: 'string', jsonPath: '.spec.hard', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', computed: 'kubectl shows used/hard of each limits.* resource; this column is the hard map.' },
    ],
  },
};
