/**
 * Constant defaults of built-in kinds, from kube 1.33's defaulting functions (pkg/apis/<group>/v1/defaults.go,
 * `+default=` markers) and the empty structs Go always writes (`resources: {}`, `status: {}`), by swagger
 * definition and property. The importer writes them into the schemas as `default`, where the generated field tree
 * applies them; defaults that depend on other fields are hooks in @kapi/apiserver (kinds/defaulters.ts).
 */
export const KUBE_DEFAULTS: Record<string, Record<string, unknown>> = {
  'io.k8s.api.apps.v1.DeploymentSpec': { replicas: 1, strategy: {}, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  'io.k8s.api.apps.v1.DeploymentStrategy': { type: 'RollingUpdate' },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': { maxUnavailable: '25%', maxSurge: '25%' },
  'io.k8s.api.apps.v1.Deployment': { status: {} },
  'io.k8s.api.apps.v1.ReplicaSetSpec': { replicas: 1 },
  'io.k8s.api.apps.v1.ReplicaSet': { status: { replicas: 0 } },
  'io.k8s.api.core.v1.PodSpec': {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
  },
  'io.k8s.api.core.v1.Container': { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
  'io.k8s.api.core.v1.EphemeralContainer': { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServiceSpec': { type: 'ClusterIP', sessionAffinity: 'None' },
  'io.k8s.api.core.v1.Probe': { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
  'io.k8s.api.core.v1.HTTPGetAction': { path: '/', scheme: 'HTTP' },
  'io.k8s.api.core.v1.SecretVolumeSource': { defaultMode: 420 },
  'io.k8s.api.core.v1.ConfigMapVolumeSource': { defaultMode: 420 },
  'io.k8s.api.core.v1.DownwardAPIVolumeSource': { defaultMode: 420 },
  'io.k8s.api.core.v1.ProjectedVolumeSource': { defaultMode: 420 },
  'io.k8s.api.core.v1.ServiceAccountTokenProjection': { expirationSeconds: 3600 },
  'io.k8s.api.core.v1.HostPathVolumeSource': { type: '' },
  'io.k8s.api.core.v1.ObjectFieldSelector': { apiVersion: 'v1' },
  'io.k8s.api.core.v1.ISCSIVolumeSource': { iscsiInterface: 'default' },
  'io.k8s.api.core.v1.RBDVolumeSource': { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  'io.k8s.api.core.v1.AzureDiskVolumeSource': { cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' },
  'io.k8s.api.core.v1.ScaleIOVolumeSource': { storageMode: 'ThinProvisioned', fsType: 'xfs' },
  // flowcontrol v1 (SetDefaults_FlowSchemaSpec, _LimitedPriorityLevelConfiguration, _ExemptPriorityLevelConfiguration,
  // _QueuingConfiguration); the int32 fields Go defaults when zero as well are hooks in @kapi/flowcontrol.
  'io.k8s.api.flowcontrol.v1.FlowSchemaSpec': { matchingPrecedence: 1000 },
  'io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration': { nominalConcurrencyShares: 30, lendablePercent: 0 },
  'io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration': { nominalConcurrencyShares: 0, lendablePercent: 0 },
  'io.k8s.api.flowcontrol.v1.QueuingConfiguration': { queues: 64, handSize: 8, queueLengthLimit: 50 },
  'io.k8s.api.rbac.v1.RoleRef': { apiGroup: 'rbac.authorization.k8s.io' },
};
