// The param objects a binding selects (kube's generic CollectParams): none needed, one by name, or every object
// a selector matches; in paramRef.namespace, else the request's namespace for namespaced kinds.
import type { KubeObject } from '@kapi/apimachinery';
import type { ParamKindSource, ParamRef, ValidatingAdmissionPolicy } from './types.js';

/** A binding's configuration cannot be applied: kube prefixes it with `failed to configure binding: `. */
export class BindingConfigError extends Error {}

/** Go's `%v` of a *ParamKind (its generated String()). */
const paramKindString = (k: { apiVersion: string; kind: string }) => `&ParamKind{APIVersion:${k.apiVersion},Kind:${k.kind},}`;

/**
 * The params to validate with: `[null]` when the policy has no paramKind or the binding no paramRef; otherwise the
 * objects found (possibly none, unless parameterNotFoundAction is Deny). Throws BindingConfigError with kube's texts.
 */
export async function collectParams(
  policy: ValidatingAdmissionPolicy,
  paramRef: ParamRef | undefined,
  requestNamespace: string,
  source: (kind: { apiVersion: string; kind: string }) => ParamKindSource | undefined,
): Promise<(KubeObject | null)[]> {
  const kind = policy.spec.paramKind;
  if (!kind || !paramRef) return [null];
  const params = source(kind);
  if (!params) throw new BindingConfigError(`paramKind kind \`${paramKindString(kind)}\` not known`);
  let namespace = '';
  if (params.namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) throw new BindingConfigError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (paramRef.namespace) {
    throw new BindingConfigError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  let found: KubeObject[];
  if (paramRef.name) {
    if (paramRef.selector) throw new BindingConfigError('paramRef.name and paramRef.selector are mutually exclusive');
    const one = await params.get(namespace, paramRef.name);
    found = one ? [one] : [];
  } else if (paramRef.selector) {
    found = await params.list(namespace, paramRef.selector);
  } else {
    throw new BindingConfigError('one of name or selector must be provided');
  }
  if (found.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    throw new BindingConfigError('no params found for policy binding with `Deny` parameterNotFoundAction');
  }
  // kube gives CEL params their TypeMeta when the object lacks it.
  return found.map((p) => (p.apiVersion && p.kind ? p : { ...p, apiVersion: kind.apiVersion, kind: kind.kind }));
}
