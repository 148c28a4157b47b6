// The few API shapes the client itself reads. Objects of a kind are typed by the group packages' generated types.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The metadata fields the client and informers read. */
export interface ObjectMetaLike {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  deletionTimestamp?: string;
  creationTimestamp?: string;
}

/** Any Kubernetes object. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
}

/** A list answer: the items, the collection's resourceVersion and the continue token of the next page. */
export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** autoscaling/v1 Scale: a scale subresource's object. */
export interface Scale {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
  spec?: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

/** meta.k8s.io/v1 Table: how `kubectl get` prints a list. */
export interface Table<T = unknown> {
  apiVersion?: string;
  kind?: 'Table';
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: { name: string; type: string; format?: string; description?: string; priority?: number }[];
  rows: { cells: unknown[]; conditions?: unknown[]; object?: T }[];
}

/** A watch event: the object as of the change, or a bookmark carrying only a resourceVersion. */
export type WatchEvent<T> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  | { type: 'BOOKMARK'; object: KubeObject };
