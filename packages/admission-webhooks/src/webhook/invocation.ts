import type { AdmissionAttributes, PluginHost } from '@kapi/apiserver';
import { newForbidden, newInternalError, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';
import type { AdmissionCelInput } from '../conditions.js';
import { matchResource, namespaceSelectorMatches, objectSelectorMatches, ruleMatches, type NamespaceGetter } from '../match/index.js';
import { admissionRequest, type Invocation } from './review.js';
import type { Webhook } from './types.js';

export type ConversionHost = Pick<PluginHost, 'equivalentResources' | 'convertObject' | 'authorize'>;

/**
 * One request's objects in the versions webhooks match them in (kube's VersionedAttributes), each version
 * converted once. A mutation replaces them all with the mutated object.
 */
export class VersionedObjects {
  private cache = new Map<string, Promise<{ object?: KubeObject; oldObject?: KubeObject }>>();

  constructor(
    private readonly attrs: AdmissionAttributes,
    private readonly host: ConversionHost,
  ) {}

  /** The objects in `info`'s version: the request's own when it is the request's resource. */
  at(info: ResourceInfo): Promise<{ object?: KubeObject; oldObject?: KubeObject }> {
    const own = this.attrs.resource;
    // A subresource's own kind (an Eviction) has no other versions to be converted to.
    if (this.attrs.kind || (info.group === own.group && info.version === own.version && info.plural === own.plural)) {
      return Promise.resolve({ object: this.attrs.object, oldObject: this.attrs.oldObject });
    }
    const key = `${info.group}/${info.version}/${info.plural}`;
    let found = this.cache.get(key);
    if (!found) {
      const convert = (o?: KubeObject) => (o ? this.host.convertObject(o, info) : Promise.resolve(undefined));
      found = Promise.all([convert(this.attrs.object), convert(this.attrs.oldObject)]).then(([object, oldObject]) => ({ object, oldObject }));
      found.catch(() => {});
      this.cache.set(key, found);
    }
    return found;
  }

  /** The object changed (a mutating webhook): conversions made before are stale. */
  invalidate(): void {
    this.cache.clear();
  }
}

/** The CEL input of a request at an invocation's version (for matchConditions and policies). */
export function celInput(attrs: AdmissionAttributes, invocation: Invocation, host: ConversionHost): AdmissionCelInput {
  return {
    object: invocation.object ?? null,
    oldObject: invocation.oldObject ?? null,
    request: admissionRequest('', attrs, invocation),
    authorize: (a) => host.authorize(a as never),
  };
}

/**
 * kube's ShouldCallHook: the webhook's namespaceSelector and objectSelector, then its rules at the request's
 * resource (or an equivalent one, `matchPolicy: Equivalent`), then its matchConditions on the object in the
 * matched version. Undefined when it does not apply; a selector that cannot be decided, or a match condition that
 * fails, is an error only for a webhook whose rules match (Forbidden for the conditions, as kube's).
 */
export async function shouldCallHook(
  hook: Webhook,
  attrs: AdmissionAttributes,
  versions: VersionedObjects,
  host: ConversionHost,
  getNamespace: NamespaceGetter,
): Promise<Invocation | undefined> {
  let selectorError: unknown;
  const own = { operation: attrs.operation, resource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.plural }, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name, object: attrs.object, oldObject: attrs.oldObject };
  try {
    if (!(await namespaceSelectorMatches(hook.namespaceSelector, own, getNamespace))) return undefined;
  } catch (err) {
    selectorError = err;
  }
  if (!objectSelectorMatches(hook.objectSelector, own)) return undefined;
  const matched = matchResource(attrs, hook.matchPolicy, host, (req) => hook.rules.some((rule) => ruleMatches(rule, req)));
  if (!matched) return undefined;
  if (selectorError) throw selectorError;
  let objects;
  try {
    objects = await versions.at(matched.info);
  } catch (err) {
    throw newInternalError(err);
  }
  const invocation: Invocation = { info: matched.info, ...objects };
  if (hook.matchConditions.size > 0) {
    const result = await hook.matchConditions.match(celInput(attrs, invocation, host));
    // kube's matchconditions.Matcher: an error skips the webhook under failurePolicy Ignore, refuses the request under Fail.
    if (result.error && hook.failurePolicy === 'Fail') throw newForbidden({ group: attrs.resource.group, resource: attrs.resource.plural }, attrs.name, result.error);
    if (!result.matches) return undefined;
  }
  return invocation;
}
