// One admission request validated against the ValidatingAdmissionPolicies and their bindings (kube's
// validating/dispatcher.go Dispatch): matching, params, evaluation per param, and the actions of each binding
// (Deny, Warn, Audit), with kube's texts. Pure: the server's parts are injected, and the result is returned.
import type { AdmissionAttributes } from '@kapi/apiserver';
import type { AdmissionInput, AdmissionRequest } from '@kapi/cel';
import { celLibrary } from '../cel-library.js';
import { goJSONEscape, newForbidden, type KubeObject, type ResourceInfo, type StatusError } from '@kapi/apimachinery';
import type { CompiledPolicy } from './compile.js';
import { matchesCriteria } from './match.js';
import { collectParams } from './params.js';
import type { PolicyDeps, PolicyResult, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types.js';
import { validatePolicy, type PolicyDecision } from './validate.js';

/** A policy with its bindings (those whose policyName names it). */
export interface PolicyHook {
  policy: ValidatingAdmissionPolicy;
  /** The compiled policy (see PolicyCompilerCache). */
  compiled: CompiledPolicy;
  bindings: ValidatingAdmissionPolicyBinding[];
}

/** The audit annotation key of Audit-action failures. */
export const VALIDATION_FAILURE_ANNOTATION = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_VALIDATION_FAILURES = 50;
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

/** kube's reasonToCode. */
const CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

interface Denied {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

/** The `request` variable at the matched resource (kube's CreateAdmissionRequest). */
function celRequest(attrs: AdmissionAttributes, matched: ResourceInfo, resource: ResourceInfo): AdmissionRequest {
  return {
    kind: matched === attrs.resource && attrs.kind ? attrs.kind : { group: matched.group, version: matched.version, kind: matched.kind },
    resource: { group: resource.group, version: resource.version, resource: resource.plural },
    subResource: attrs.subresource,
    requestKind: attrs.kind ?? { group: attrs.resource.group, version: attrs.resource.version, kind: attrs.resource.kind },
    requestResource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.plural },
    requestSubResource: attrs.subresource,
    name: attrs.name,
    namespace: attrs.namespace,
    operation: attrs.operation,
    userInfo: attrs.user,
    dryRun: attrs.dryRun,
    options: attrs.options,
  };
}

/** Collects a policy's published audit annotations: duplicates dropped, distinct values joined (kube's collector). */
class AuditAnnotationCollector {
  private readonly values = new Map<string, string[]>();
  add(key: string, value: string): void {
    const list = this.values.get(key) ?? [];
    if (!list.includes(value)) list.push(value);
    this.values.set(key, list);
  }
  publish(policy: string, into: Record<string, string>): void {
    for (const [key, values] of this.values) into[`${policy}/${key}`] = values.join(', ');
  }
}

/**
 * Validates one request against the policies (kube's ValidatingAdmissionPolicy admission plugin): returns the
 * denial of the first denying decision, the Warn warnings and the audit annotations. Throws what reading a
 * namespace throws (kube fails the request then).
 */
export async function validateRequest(hooks: readonly PolicyHook[], attrs: AdmissionAttributes, deps: PolicyDeps): Promise<PolicyResult> {
  const denied: Denied[] = [];
  const warnings: string[] = [];
  const auditAnnotations: Record<string, string> = {};
  const failures: { message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }[] = [];
  const authorize = deps.authorize ? celLibrary().cachingAuthorizer(deps.authorize) : undefined;

  const configError = (policy: ValidatingAdmissionPolicy, binding: ValidatingAdmissionPolicyBinding | undefined, err: unknown) => {
    const failurePolicy = policy.spec.failurePolicy ?? 'Fail';
    if (failurePolicy === 'Ignore') return;
    const text = err instanceof Error ? err.message : String(err);
    const message =
      failurePolicy === 'Fail' ? `failed to configure ${binding ? 'binding' : 'policy'}: ${text}` : `unrecognized failure policy: '${failurePolicy}'`;
    denied.push({ policy: policy.metadata.name, binding: binding?.metadata.name, message });
  };

  for (const { policy, compiled, bindings } of hooks) {
    let match;
    try {
      if (!policy.spec.matchConstraints) throw new Error('policy contained no match constraints, a required field');
      match = await matchesCriteria(policy.spec.matchConstraints, attrs, deps);
    } catch (err) {
      configError(policy, undefined, err);
      continue;
    }
    if (!match) continue;
    const collector = new AuditAnnotationCollector();
    for (const binding of bindings) {
      try {
        if (binding.spec.matchResources && !(await matchesCriteria(binding.spec.matchResources, attrs, deps))) continue;
      } catch (err) {
        configError(policy, binding, err);
        continue;
      }
      let params: (KubeObject | null)[];
      try {
        params = await collectParams(policy, binding.spec.paramRef, attrs.namespace, deps.paramKind);
      } catch (err) {
        configError(policy, binding, err);
        continue;
      }
      if (params.length === 0) continue;
      let objects: { object?: KubeObject; oldObject?: KubeObject };
      try {
        objects = match.converted && deps.objectsAt ? await deps.objectsAt(match.info) : { object: attrs.object, oldObject: attrs.oldObject };
      } catch (err) {
        configError(policy, binding, `failed to convert object version: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      // kube: a Namespace request has no namespaceObject (its namespace is itself).
      const isNamespace = attrs.resource.group === '' && attrs.resource.version === 'v1' && attrs.resource.kind === 'Namespace';
      const namespaceName = isNamespace ? '' : attrs.namespace;
      const namespaceObject = namespaceName ? ((await deps.getNamespace(namespaceName)) ?? null) : null;
      const base = { object: objects.object ?? null, oldObject: objects.oldObject ?? null, authorizer: authorize };
      for (const param of params) {
        const input: AdmissionInput = { ...base, params: param, namespaceObject, request: celRequest(attrs, match.info, match.info) };
        const matchInput: AdmissionInput = { ...base, params: param, namespaceObject: null, request: celRequest(attrs, match.info, attrs.resource) };
        const result = await validatePolicy(compiled, input, matchInput);
        result.decisions.forEach((d: PolicyDecision, i) => {
          if (d.action !== 'deny') return;
          for (const action of binding.spec.validationActions) {
            if (action === 'Deny') denied.push({ policy: policy.metadata.name, binding: binding.metadata.name, message: d.message, reason: d.reason });
            else if (action === 'Audit') {
              failures.push({ message: d.message, policy: binding.spec.policyName, binding: binding.metadata.name, expressionIndex: i, validationActions: binding.spec.validationActions });
            } else if (action === 'Warn') {
              warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding.metadata.name}': ${d.message}`);
            }
          }
        });
        for (const a of result.auditAnnotations) {
          if (a.action === 'publish') collector.add(a.key, a.value!.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH));
          else if (a.action === 'error') denied.push({ policy: policy.metadata.name, binding: binding.metadata.name, message: a.error! });
        }
      }
    }
    collector.publish(policy.metadata.name, auditAnnotations);
  }

  if (failures.length > 0) auditAnnotations[VALIDATION_FAILURE_ANNOTATION] = goJSONEscape(JSON.stringify(failures.slice(0, MAX_VALIDATION_FAILURES)));
  const first = denied[0];
  if (!first) return { warnings, auditAnnotations };
  const reason = first.reason || 'Invalid';
  const message =
    first.binding !== undefined
      ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
      : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`;
  return { denied: { code: CODES[reason] ?? 422, reason, message }, warnings, auditAnnotations };
}

/**
 * The error kube answers a denial with: admission's Forbidden (`<resource> "<name>" is forbidden: <message>`, the
 * name `Unknown` when the request has none and the object no name) with the denial's reason and code, and the
 * message as a cause.
 */
export function policyDenialError(attrs: AdmissionAttributes, denial: { code: number; reason: string; message: string }): StatusError {
  const name = attrs.name || (attrs.object?.metadata as { name?: string } | undefined)?.name || 'Unknown';
  const err = newForbidden({ group: attrs.resource.group, resource: attrs.resource.plural }, name, denial.message);
  const status = err.status as { reason?: string; code?: number; details?: { causes?: { message: string }[] } };
  status.reason = denial.reason;
  status.code = denial.code;
  status.details = { ...status.details, causes: [...(status.details?.causes ?? []), { message: denial.message }] };
  return err;
}
