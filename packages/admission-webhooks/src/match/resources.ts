import type { AdmissionAttributes, PluginHost } from '@kapi/apiserver';
import type { ResourceInfo } from '@kapi/apimachinery';
import { matchRequestOf, type MatchRequest } from './request.js';

/** Where a request matched: at its own resource, or (matchPolicy Equivalent) at an equivalent one. */
export interface MatchedResource {
  /** The request as the rules saw it, at the matched resource. */
  request: MatchRequest;
  /** The matched resource's info: the version the object must be sent in. */
  info: ResourceInfo;
  /** True when the match is at another resource than the request's own. */
  converted: boolean;
}

/**
 * kube's matchPolicy: `Exact` matches rules against the request's own resource; `Equivalent` (the default) also,
 * when that fails, against each equivalent resource (another version of the resource, or one stored with it), the
 * object then being sent converted to that version.
 */
export function matchResource(
  attrs: AdmissionAttributes,
  matchPolicy: string | undefined,
  host: Pick<PluginHost, 'equivalentResources'>,
  matches: (req: MatchRequest) => boolean,
): MatchedResource | undefined {
  const own = matchRequestOf(attrs);
  if (matches(own)) return { request: own, info: attrs.resource, converted: false };
  if (matchPolicy === 'Exact') return undefined;
  for (const info of host.equivalentResources(attrs.resource)) {
    const req: MatchRequest = { ...own, resource: { group: info.group, version: info.version, resource: info.plural } };
    if (matches(req)) return { request: req, info, converted: true };
  }
  return undefined;
}
