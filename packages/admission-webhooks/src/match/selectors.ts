import { labelSelectorFromObject, newInternalError, type KubeObject } from '@kapi/apimachinery';
import { isNamespaceResource, type MatchRequest } from './request.js';

/** A metav1 LabelSelector as the API carries it. */
export type LabelSelector = NonNullable<Parameters<typeof labelSelectorFromObject>[0]>;

const labelsOf = (obj: KubeObject | undefined) => (obj?.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {};

/** A selector kube's validation let through; one it could not parse matches nothing rather than failing requests. */
function parse(selector: LabelSelector | undefined) {
  try {
    return labelSelectorFromObject(selector ?? {});
  } catch {
    return labelSelectorFromObject(null);
  }
}

/**
 * kube's objectSelector (webhook/predicates/object): empty matches everything; otherwise the object's or the old
 * object's labels must match.
 */
export function objectSelectorMatches(selector: LabelSelector | undefined, req: MatchRequest): boolean {
  const parsed = parse(selector);
  if (parsed.isEmpty()) return true;
  return (!!req.object && parsed.matches(labelsOf(req.object))) || (!!req.oldObject && parsed.matches(labelsOf(req.oldObject)));
}

/** Reads a namespace (its labels decide a namespaceSelector); undefined when it does not exist. */
export type NamespaceGetter = (name: string) => Promise<KubeObject | undefined>;

/**
 * kube's namespaceSelector (webhook/predicates/namespace): a cluster-scoped request other than for a Namespace
 * always matches; a Namespace is judged by its own labels; anything else by its namespace's labels.
 */
export async function namespaceSelectorMatches(selector: LabelSelector | undefined, req: MatchRequest, getNamespace: NamespaceGetter): Promise<boolean> {
  const namespaced = isNamespaceResource(req.resource);
  if (!req.namespace && !namespaced) return true;
  const parsed = parse(selector);
  if (parsed.isEmpty()) return true;
  if (namespaced) {
    const own = req.object ?? req.oldObject;
    if (own) return parsed.matches(labelsOf(own));
  }
  const name = req.namespace || req.name;
  const namespace = await getNamespace(name);
  // kube: a request for content of a namespace it cannot find fails (NamespaceLifecycle answers 404 first).
  if (!namespace) throw newInternalError(`namespaces "${name}" not found`);
  return parsed.matches(labelsOf(namespace));
}
