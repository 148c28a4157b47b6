/** What the importer brings in: these definitions and everything they reference. */

/** Kinds served as resources (they get an `x-kapi-resource` header). */
export const KINDS: readonly string[] = [
  ...[
    'Namespace', 'ConfigMap', 'Secret', 'ServiceAccount', 'Event', 'Pod', 'Service', 'Node', 'Binding', 'ComponentStatus',
    'Endpoints', 'LimitRange', 'PersistentVolume', 'PersistentVolumeClaim', 'PodTemplate', 'ReplicationController',
    'ResourceQuota',
  ].map((k) => `io.k8s.api.core.v1.${k}`),
  ...['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ControllerRevision'].map((k) => `io.k8s.api.apps.v1.${k}`),
  'io.k8s.api.autoscaling.v1.Scale',
  // The same resource in two versions, stored as v2: @kapi/api-autoscaling converts between them.
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  ...['Job', 'CronJob'].map((k) => `io.k8s.api.batch.v1.${k}`),
  'io.k8s.api.policy.v1.PodDisruptionBudget',
  'io.k8s.api.policy.v1.Eviction',
  'io.k8s.api.coordination.v1.Lease',
  'io.k8s.api.flowcontrol.v1.FlowSchema',
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration',
  ...['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].map((k) => `io.k8s.api.rbac.v1.${k}`),
  ...['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'].map(
    (k) => `io.k8s.api.authorization.v1.${k}`,
  ),
  ...['SelfSubjectReview', 'TokenReview', 'TokenRequest'].map((k) => `io.k8s.api.authentication.v1.${k}`),
  ...['Ingress', 'IngressClass', 'NetworkPolicy', 'IPAddress', 'ServiceCIDR'].map((k) => `io.k8s.api.networking.v1.${k}`),
  'io.k8s.api.discovery.v1.EndpointSlice',
  'io.k8s.api.events.v1.Event',
  ...['StorageClass', 'CSIDriver', 'CSINode', 'CSIStorageCapacity', 'VolumeAttachment'].map((k) => `io.k8s.api.storage.v1.${k}`),
  'io.k8s.api.scheduling.v1.PriorityClass',
  'io.k8s.api.node.v1.RuntimeClass',
  'io.k8s.api.certificates.v1.CertificateSigningRequest',
  ...[
    'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  ].map((k) => `io.k8s.api.admissionregistration.v1.${k}`),
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
];

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The wire types of meta.k8s.io and apimachinery, and the apidiscovery.k8s.io/v2 documents. */
export const SUPPORT_TYPES: readonly string[] = [
  ...[
    'Status', 'StatusDetails', 'StatusCause', 'ListMeta', 'ObjectMeta',
    'Table', 'TableColumnDefinition', 'TableRow', 'TableRowCondition',
    'WatchEvent', 'DeleteOptions', 'Preconditions',
    'APIResourceList', 'APIResource', 'APIGroup', 'APIGroupList', 'APIVersions', 'GroupVersionForDiscovery',
    'ServerAddressByClientCIDR', 'LabelSelector', 'LabelSelectorRequirement', 'Condition', 'GroupVersionKind',
    'Time', 'MicroTime', 'Duration', 'FieldsV1', 'PartialObjectMetadata', 'PartialObjectMetadataList',
  ].map((n) => `${META}.${n}`),
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.runtime.Unknown',
  'io.k8s.apimachinery.pkg.runtime.TypeMeta',
  ...['APIGroupDiscoveryList', 'APIGroupDiscovery', 'APIVersionDiscovery', 'APIResourceDiscovery', 'APISubresourceDiscovery'].map(
    (n) => `io.k8s.api.apidiscovery.v2.${n}`,
  ),
];
