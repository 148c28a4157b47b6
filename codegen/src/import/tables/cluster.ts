import { AGE, BINDING_COLUMNS, type KindTable } from './common.js';

/** Cluster-level groups (coordination, flowcontrol, rbac, networking, storage, ...), by `<group>/<kind>`. */
export const CLUSTER_TABLES: Record<string, KindTable> = {
  'coordination.k8s.io/Lease': {
    allowUnconditionalUpdate: false,
    printerColumns: [{ name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' }, AGE],
  },
  'flowcontrol.apiserver.k8s.io/FlowSchema': {
    allowCreateOnUpdate: false,
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
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': {
    allowCreateOnUpdate: false,
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
  // RBAC names are path segments only (kube's ValidatePathSegmentName): roles are named `system:controller:foo`.
  'rbac.authorization.k8s.io/Role': { nameValidation: 'PathSegment' },
  'rbac.authorization.k8s.io/ClusterRole': { nameValidation: 'PathSegment' },
  'rbac.authorization.k8s.io/RoleBinding': { nameValidation: 'PathSegment', printerColumns: BINDING_COLUMNS },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { nameValidation: 'PathSegment', printerColumns: BINDING_COLUMNS },
  'networking.k8s.io/Ingress': {
    allowCreateOnUpdate: false,
    shortNames: ['ing'],
    printerColumns: [
      { name: 'Class', type: 'string', jsonPath: '.spec.ingressClassName', computed: 'kubectl shows <none> when unset.' },
      { name: 'Hosts', type: 'string', jsonPath: '.spec.rules[*].host', description: 'Hosts that incoming requests are matched against before the ingress rule', computed: 'kubectl shows * for a rule without host.' },
      { name: 'Address', type: 'string', jsonPath: '.status.loadBalancer.ingress[*].ip', description: 'Address is a list containing ingress points for the load-balancer' },
      { name: 'Ports', type: 'string', jsonPath: '.spec.tls[*].hosts', description: 'Ports of TLS configurations that open', computed: 'kubectl shows "80" or "80, 443" when TLS is configured; this column lists the TLS hosts.' },
      AGE,
    ],
  },
  'networking.k8s.io/IngressClass': {
    allowCreateOnUpdate: false,
    printerColumns: [
      { name: 'Controller', type: 'string', jsonPath: '.spec.controller' },
      { name: 'Parameters', type: 'string', jsonPath: '.spec.parameters.name', description: 'A reference to a resource with additional parameters', computed: 'kubectl shows Kind.group/name; this column is the name.' },
      AGE,
    ],
  },
  'networking.k8s.io/NetworkPolicy': {
    allowCreateOnUpdate: false,
    shortNames: ['netpol'],
    printerColumns: [
      { name: 'Pod-Selector', type: 'string', jsonPath: '.spec.podSelector', computed: 'kubectl shows the selector in its string form; this column is the selector object.' },
      AGE,
    ],
  },
  'networking.k8s.io/IPAddress': {
    allowCreateOnUpdate: false,
    shortNames: ['ip'],
    printerColumns: [
      { name: 'ParentRef', type: 'string', jsonPath: '.spec.parentRef.name', computed: 'kubectl shows resource.group/namespace/name; this column is the name.' },
    ],
  },
  'networking.k8s.io/ServiceCIDR': {
    allowCreateOnUpdate: false,
    printerColumns: [{ name: 'CIDRs', type: 'string', jsonPath: '.spec.cidrs', computed: 'kubectl joins them with commas.' }, AGE],
  },
  'discovery.k8s.io/EndpointSlice': {
    allowCreateOnUpdate: false,
    printerColumns: [
      { name: 'AddressType', type: 'string', jsonPath: '.addressType' },
      { name: 'Ports', type: 'string', jsonPath: '.ports[*].port', computed: 'kubectl joins the ports and shows <unset> for a nil port.' },
      { name: 'Endpoints', type: 'string', jsonPath: '.endpoints[*].addresses[*]', computed: 'kubectl shows up to three addresses and "+ N more...".' },
      AGE,
    ],
  },
  'storage.k8s.io/StorageClass': {
    allowCreateOnUpdate: false,
    shortNames: ['sc'],
    printerColumns: [
      { name: 'Provisioner', type: 'string', jsonPath: '.provisioner' },
      { name: 'ReclaimPolicy', type: 'string', jsonPath: '.reclaimPolicy' },
      { name: 'VolumeBindingMode', type: 'string', jsonPath: '.volumeBindingMode' },
      { name: 'AllowVolumeExpansion', type: 'string', jsonPath: '.allowVolumeExpansion' },
      AGE,
    ],
  },
  'storage.k8s.io/CSIDriver': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    printerColumns: [
      { name: 'AttachRequired', type: 'boolean', jsonPath: '.spec.attachRequired' },
      { name: 'PodInfoOnMount', type: 'boolean', jsonPath: '.spec.podInfoOnMount' },
      { name: 'StorageCapacity', type: 'boolean', jsonPath: '.spec.storageCapacity' },
      { name: 'TokenRequests', type: 'string', jsonPath: '.spec.tokenRequests[*].audience' },
      { name: 'RequiresRepublish', type: 'boolean', jsonPath: '.spec.requiresRepublish' },
      { name: 'Modes', type: 'string', jsonPath: '.spec.volumeLifecycleModes' },
      AGE,
    ],
  },
  'storage.k8s.io/CSINode': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    printerColumns: [
      { name: 'Drivers', type: 'integer', jsonPath: '.spec.drivers', computed: 'kubectl shows the number of drivers; this column is the list.' },
      AGE,
    ],
  },
  'storage.k8s.io/CSIStorageCapacity': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    printerColumns: [
      { name: 'StorageClassName', type: 'string', jsonPath: '.storageClassName' },
      { name: 'Capacity', type: 'string', jsonPath: '.capacity' },
    ],
  },
  'storage.k8s.io/VolumeAttachment': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    printerColumns: [
      { name: 'Attacher', type: 'string', jsonPath: '.spec.attacher' },
      { name: 'PV', type: 'string', jsonPath: '.spec.source.persistentVolumeName' },
      { name: 'Node', type: 'string', jsonPath: '.spec.nodeName' },
      { name: 'Attached', type: 'boolean', jsonPath: '.status.attached' },
      AGE,
    ],
  },
  'scheduling.k8s.io/PriorityClass': {
    allowCreateOnUpdate: false,
    shortNames: ['pc'],
    printerColumns: [
      { name: 'Value', type: 'integer', jsonPath: '.value' },
      { name: 'Global-Default', type: 'boolean', jsonPath: '.globalDefault' },
      AGE,
      { name: 'PreemptionPolicy', type: 'string', jsonPath: '.preemptionPolicy' },
    ],
  },
  'node.k8s.io/RuntimeClass': {
    allowUnconditionalUpdate: false,
    printerColumns: [{ name: 'Handler', type: 'string', jsonPath: '.handler' }, AGE],
  },
  'certificates.k8s.io/CertificateSigningRequest': {
    allowCreateOnUpdate: false,
    shortNames: ['csr'],
    printerColumns: [
      AGE,
      { name: 'SignerName', type: 'string', jsonPath: '.spec.signerName' },
      { name: 'Requestor', type: 'string', jsonPath: '.spec.username' },
      { name: 'RequestedDuration', type: 'string', jsonPath: '.spec.expirationSeconds', computed: 'kubectl shows a duration ("1h") or <none>; this column is the seconds.' },
      { name: 'Condition', type: 'string', jsonPath: '.status.conditions[*].type', computed: 'kubectl shows the conditions joined with commas, Pending when there are none, and ",Issued" once the certificate is set.' },
    ],
  },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    categories: ['api-extensions'],
    printerColumns: [
      { name: 'Webhooks', type: 'integer', jsonPath: '.webhooks', computed: 'kubectl shows the number of webhooks; this column is the list.' },
      AGE,
    ],
  },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    categories: ['api-extensions'],
    printerColumns: [
      { name: 'Webhooks', type: 'integer', jsonPath: '.webhooks', computed: 'kubectl shows the number of webhooks; this column is the list.' },
      AGE,
    ],
  },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    categories: ['api-extensions'],
    printerColumns: [
      { name: 'Validations', type: 'integer', jsonPath: '.spec.validations', computed: 'kubectl shows the number of validations; this column is the list.' },
      { name: 'ParamKind', type: 'string', jsonPath: '.spec.paramKind.kind', computed: 'kubectl shows apiVersion/kind or <unset>; this column is the kind.' },
      AGE,
    ],
  },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    categories: ['api-extensions'],
    printerColumns: [
      { name: 'PolicyName', type: 'string', jsonPath: '.spec.policyName' },
      { name: 'ParamRef', type: 'string', jsonPath: '.spec.paramRef.name', computed: 'kubectl shows namespace/name or <unset>; this column is the name.' },
      AGE,
    ],
  },
  'apiextensions.k8s.io/CustomResourceDefinition': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    printerColumns: [{ name: 'Created At', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
  },
  // kube-aggregator's ValidateAPIService checks names as path segments (`v1.` is the core group's APIService).
  'apiregistration.k8s.io/APIService': {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    nameValidation: 'PathSegment',
    categories: ['api-extensions'],
    printerColumns: [
      { name: 'Service', type: 'string', jsonPath: '.spec.service.name', computed: 'kubectl shows namespace/name or Local; this column is the name.' },
      { name: 'Available', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].status', description: 'Whether the API service is available.', computed: 'kubectl shows True, or False (reason).' },
      AGE,
    ],
  },
  // kube prints events.k8s.io Events with core Events' printer (both convert to one internal type).
  'events.k8s.io/Event': {
    shortNames: ['ev'],
    printerColumns: [
      { name: 'Last Seen', type: 'date', jsonPath: '.deprecatedLastTimestamp', description: 'The time at which the most recent occurrence of this event was recorded.', computed: 'kubectl falls back to eventTime and series.lastObservedTime.' },
      { name: 'Type', type: 'string', jsonPath: '.type' },
      { name: 'Reason', type: 'string', jsonPath: '.reason' },
      { name: 'Object', type: 'string', jsonPath: '.regarding.name', description: 'The object that this event is about.', computed: 'kubectl shows kind/name of the regarding object; this column is the name.' },
      { name: 'Message', type: 'string', jsonPath: '.note' },
    ],
  },
};
