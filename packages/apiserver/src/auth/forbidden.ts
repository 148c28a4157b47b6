import { newForbidden, goQuote, type StatusError } from '@kapi/apimachinery';
import type { AuthorizationAttributes } from './types.js';

/**
 * kube's wording of an authorization denial (responsewriters.forbiddenMessage):
 * `User "u" cannot list resource "pods" in API group "" in the namespace "ns"`, `... at the cluster scope`, or
 * `User "u" cannot get path "/healthz"` for non-resource requests. Subresources read `resource "pods/status"`.
 */
export function forbiddenMessage(attributes: AuthorizationAttributes): string {
  const user = goQuote(attributes.user.username);
  if (!attributes.resourceRequest) return `User ${user} cannot ${attributes.verb} path ${goQuote(attributes.path)}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const what = `User ${user} cannot ${attributes.verb} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)}`;
  return attributes.namespace ? `${what} in the namespace ${goQuote(attributes.namespace)}` : `${what} at the cluster scope`;
}

// kube avoids error text that looks like HTML; quotes are fine.
const sanitize = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The 403 Forbidden Status kube answers a denied request with (responsewriters.Forbidden):
 * `pods "x" is forbidden: <message>[: <reason>]`, `forbidden: <message>` for non-resource requests.
 */
export function forbiddenError(attributes: AuthorizationAttributes, reason?: string): StatusError {
  const message = sanitize(forbiddenMessage(attributes));
  return newForbidden({ group: attributes.apiGroup, resource: attributes.resource }, attributes.name, reason ? `${message}: ${reason}` : message);
}
