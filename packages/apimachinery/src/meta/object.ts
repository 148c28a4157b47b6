import type { ListMeta, ObjectMeta, RuntimeTypeMeta } from '../generated/meta/v1/index.js';

/** The `apiVersion` and `kind` every object carries (metav1.TypeMeta; on the Protobuf wire, runtime.TypeMeta). */
export type TypeMeta = RuntimeTypeMeta;

/** Any kube object in its JSON form: TypeMeta, ObjectMeta and the kind's own fields. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A kube collection (`<Kind>List`) in its JSON form. */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: T[];
}

/** Whether `obj` is a list (has an `items` array), as kube's meta.IsListType. */
export function isKubeList(obj: unknown): obj is KubeList {
  return typeof obj === 'object' && obj !== null && Array.isArray((obj as { items?: unknown }).items);
}

/** ListMeta with only its non-empty fields, as kube's JSON writes it. */
export function compactListMeta(meta: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (meta?.selfLink) out.selfLink = meta.selfLink;
  if (meta?.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta?.continue) out.continue = meta.continue;
  if (meta?.remainingItemCount !== undefined && meta.remainingItemCount !== null) out.remainingItemCount = meta.remainingItemCount;
  return out;
}
