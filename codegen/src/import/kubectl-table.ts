/**
 * Hand-maintained facts that swagger does not carry: short names and categories as kube-apiserver serves them
 * in discovery, and the columns `kubectl get` shows for each built-in kind (kube's Go table printers,
 * pkg/printers/internalversion/printers.go), expressed as CRD-style jsonPath columns.
 *
 * Kube computes many of its columns in Go (Pod READY is "1/2"); such a column here points at the closest
 * jsonPath and says so in `computed`, which is appended to the description. A column without `description`
 * takes the swagger description of the field its jsonPath names.
 */

export interface ColumnSpec {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  computed?: string;
  priority?: number;
  format?: string;
}

export interface KindTable {
  shortNames?: string[];
  categories?: string[];
  printerColumns?: ColumnSpec[];
}

const AGE: ColumnSpec = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const CONTAINERS: ColumnSpec[] = [
  { name: 'Containers', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', priority: 1, description: 'Names of each container in the template.' },
  { name: 'Images', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', priority: 1, description: 'Images referenced by each container in the template.' },
  {
    name: 'Selector',
    type: 'string',
    jsonPath: '.spec.selector',
    priority: 1,
    computed: 'kubectl shows the selector in its string form (app=web); this column is the selector object.',
  },
];

const BINDING_COLUMNS: ColumnSpec[] = [
  {
    name: 'Role',
    type: 'string',
    jsonPath: '.roleRef.name',
    description:
      'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
    computed: 'kubectl shows Kind/name of the role; this column is the name.',
  },
  AGE,
  {
    name: 'Users',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="User")].name',
    priority: 1,
    description: 'Users in this binding.',
  },
  {
    name: 'Groups',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="Group")].name',
    priority: 1,
    description: 'Groups in this binding.',
  },
  {
    name: 'ServiceAccounts',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="ServiceAccount")].name',
    priority: 1,
    description: 'ServiceAccounts in this binding.',
    computed: 'kubectl shows namespace:name; this column is the name.',
  },
];

/** By kind (all kinds the importer brings in are in distinct groups or have distinct names). */
export const KUBECTL_TABLE: Record<string, KindTable> = {
  Namespace: {
    shortNames: ['ns'],
    printerColumns: [{ name: 'Status', type: 'string', jsonPath: '.status.phase', description: 'The status of the namespace' }, AGE],
  },
  ConfigMap: {
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
  Secret: {
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
  ServiceAccount: {
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
  Event: {
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
  Pod: {
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
  Service: {
    shortNames: ['svc'],
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
  Node: {
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
  Deployment: {
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
  ReplicaSet: {
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
  PodDisruptionBudget: {
    shortNames: ['pdb'],
    printerColumns: [
      { name: 'Min Available', type: 'string', jsonPath: '.spec.minAvailable' },
      { name: 'Max Unavailable', type: 'string', jsonPath: '.spec.maxUnavailable' },
      { name: 'Allowed Disruptions', type: 'integer', jsonPath: '.status.disruptionsAllowed' },
      AGE,
    ],
  },
  Lease: {
    printerColumns: [{ name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' }, AGE],
  },
  FlowSchema: {
    printerColumns: [
      { name: 'PriorityLevel', type: 'string', jsonPath: '.spec.priorityLevelConfiguration.name' },
      { name: 'MatchingPrecedence', type: 'string', jsonPath: '.spec.matchingPrecedence' },
      { name: 'DistinguisherMethod', type: 'string', jsonPath: '.spec.distinguisherMethod.type' },
      AGE,
      {
        name: 'MissingPL',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Dangling")].status',
        description: 'Whether the priority level the schema names is missing.',
        computed: 'kubectl shows the Dangling condition\'s status, or ? when there is none.',
      },
    ],
  },
  PriorityLevelConfiguration: {
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.type' },
      { name: 'NominalConcurrencyShares', type: 'string', jsonPath: '.spec.limited.nominalConcurrencyShares' },
      { name: 'Queues', type: 'string', jsonPath: '.spec.limited.limitResponse.queuing.queues' },
      { name: 'HandSize', type: 'string', jsonPath: '.spec.limited.limitResponse.queuing.handSize' },
      { name: 'QueueLengthLimit', type: 'string', jsonPath: '.spec.limited.limitResponse.queuing.queueLengthLimit' },
      AGE,
    ],
  },
  // Role and ClusterRole: kubectl shows Name and Created At, the default columns.
  RoleBinding: { printerColumns: BINDING_COLUMNS },
  ClusterRoleBinding: { printerColumns: BINDING_COLUMNS },
};
