import type { GroupVersionKind } from '../generated/meta/v1/index.js';

/** An API group and version (`apps/v1`; the legacy core group is `''`). */
export interface GroupVersion {
  group: string;
  version: string;
}

/** An API group and kind, as in `Deployment.apps`. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** An API group and resource (plural), as in `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

// The generated metav1 GroupVersionKind has this very shape; re-exporting it keeps one symbol for the package.
export type { GroupVersionKind };

/** A resource (plural) in one API group version. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/**
 * Parses an `apiVersion` (`apps/v1`, `v1`) like kube's schema.ParseGroupVersion: `''` and `'/'` give the empty
 * group version; more than one `/` throws.
 */
export function parseGroupVersion(apiVersion: string): GroupVersion {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  if (apiVersion.indexOf('/', slash + 1) >= 0) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** `apps/v1` for a named group, `v1` for the core group. */
export function formatGroupVersion(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** `deployments.apps`, or `pods` for the core group (kube's GroupResource.String()). */
export function formatGroupResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** `Deployment.apps`, or `Pod` for the core group (kube's GroupKind.String()). */
export function formatGroupKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` (kube's GroupVersionKind.String()). */
export function formatGroupVersionKind(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/** `apps/v1, Resource=deployments`, `/v1, Resource=pods` (kube's GroupVersionResource.String()). */
export function formatGroupVersionResource(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}

/**
 * The kind of an object from its `apiVersion` and `kind` (kube's FromAPIVersionAndKind): missing fields are `''`,
 * and an unparseable apiVersion leaves group and version empty.
 */
export function gvkFromObject(obj: unknown): GroupVersionKind {
  const o = (typeof obj === 'object' && obj !== null ? obj : {}) as { apiVersion?: unknown; kind?: unknown };
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  try {
    return { ...parseGroupVersion(apiVersion), kind };
  } catch {
    return { group: '', version: '', kind };
  }
}

/** The `apiVersion` and `kind` strings that identify `gvk` on an object. */
export function apiVersionAndKind(gvk: GroupVersionKind): { apiVersion: string; kind: string } {
  return { apiVersion: formatGroupVersion(gvk), kind: gvk.kind };
}
