import type { AdmissionAttributes } from '@kapi/apiserver';
import type { KubeObject } from '@kapi/apimachinery';

/** A group, version and resource (kube's GroupVersionResource). */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** What rules and selectors look at in one admission request. */
export interface MatchRequest {
  operation: AdmissionAttributes['operation'];
  resource: GroupVersionResource;
  subresource: string;
  namespace: string;
  name: string;
  object?: KubeObject;
  oldObject?: KubeObject;
}

/** The match view of admission attributes, at the request's own resource. */
export const matchRequestOf = (attrs: AdmissionAttributes): MatchRequest => ({
  operation: attrs.operation,
  resource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.plural },
  subresource: attrs.subresource,
  namespace: attrs.namespace,
  name: attrs.name,
  object: attrs.object,
  oldObject: attrs.oldObject,
});

/** kube's namespace resource: its objects are cluster-scoped, yet namespaceSelector and scope treat them specially. */
export const isNamespaceResource = (r: GroupVersionResource) => r.group === '' && r.resource === 'namespaces';
