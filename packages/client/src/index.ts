export { createClient, type BaseClient, type Client, type GroupClient, type GroupResources } from './client.js';
export { inClusterConfig, loadKubeconfig, type ClientConfig, type KubeconfigOptions, type LoadedKubeconfig } from './config.js';
export type { ExecCluster, ExecConfig } from './exec-credential.js';
export { createController, type Controller, type ControllerOptions, type ReconcileContext, type ReconcileRequest, type ReconcileResult, type WatchSource } from './controller.js';
export {
  ApiError,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  isUnauthorized,
  type Status,
} from './errors.js';
export { Informer, InformerFactory, type InformerHandlers, type InformerOptions } from './informer.js';
export { leases, runLeaderElection, type Lease, type LeaderElection, type LeaderElectionOptions } from './leader-election.js';
export {
  ResourceClient,
  type ApplyConfiguration,
  type ApplyOptions,
  type DeleteOptions,
  type ListOptions,
  type PatchOptions,
  type PatchType,
  type ResourceType,
  type WatchOptions,
  type Writable,
  type WriteOptions,
} from './resource.js';
export { defaultIndexers, objectKey, Store, type IndexFunc } from './store.js';
export { Transport, type Query, type RequestOptions } from './transport.js';
export type { KubeObject, ObjectList, ObjectMetaLike, OwnerReference, Scale, Table, WatchEvent } from './types.js';
export { WorkQueue, type WorkQueueOptions } from './workqueue.js';
