// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding, as the engine
// reads them (the API has already validated and defaulted them), and what the engine is given and returns.
import type { AdmissionAuthorizer } from '@kapi/cel';
import type { KubeObject, ResourceInfo } from '@kapi/apimachinery';
import type { LabelSelector, NamespaceGetter, Rule } from '../match/index.js';

/** kube's MatchResources (a policy's matchConstraints, a binding's matchResources). */
export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: Rule[];
  excludeResourceRules?: Rule[];
  matchPolicy?: 'Exact' | 'Equivalent';
}

/** One `spec.validations[i]`. */
export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  /** `Unauthorized`, `Forbidden`, `Invalid` or `RequestEntityTooLarge`; kube's default is `Invalid`. */
  reason?: string;
}

/** A ValidatingAdmissionPolicy. */
export interface ValidatingAdmissionPolicy {
  metadata: { name: string; uid?: string; generation?: number };
  spec: {
    paramKind?: { apiVersion: string; kind: string };
    matchConstraints?: MatchResources;
    validations?: Validation[];
    failurePolicy?: 'Fail' | 'Ignore';
    auditAnnotations?: { key: string; valueExpression: string }[];
    matchConditions?: { name: string; expression: string }[];
    variables?: { name: string; expression: string }[];
  };
}

/** A binding's paramRef. */
export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: 'Allow' | 'Deny';
}

/** A ValidatingAdmissionPolicyBinding. */
export interface ValidatingAdmissionPolicyBinding {
  metadata: { name: string };
  spec: {
    policyName: string;
    paramRef?: ParamRef;
    matchResources?: MatchResources;
    validationActions: ('Deny' | 'Warn' | 'Audit')[];
  };
}

/** Reads the param objects of one paramKind. */
export interface ParamKindSource {
  /** Whether objects of the kind live in namespaces. */
  namespaced: boolean;
  /** The object, or undefined when it does not exist (namespace '' for cluster-scoped kinds). */
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** The objects whose labels match `selector` (namespace '' for cluster-scoped kinds). */
  list(namespace: string, selector: LabelSelector): Promise<KubeObject[]>;
}

/** What the engine needs from the server, injected. */
export interface PolicyDeps {
  /** The param source of a paramKind; undefined when the server does not serve that kind. */
  paramKind(paramKind: { apiVersion: string; kind: string }): ParamKindSource | undefined;
  /** Reads a namespace (namespaceSelector, `namespaceObject`). */
  getNamespace: NamespaceGetter;
  /** The resources equivalent to one (matchPolicy Equivalent); none by default. */
  equivalentResources?(info: ResourceInfo): ResourceInfo[];
  /** The request's objects converted to a matched resource's version; the request's own objects by default. */
  objectsAt?(info: ResourceInfo): Promise<{ object?: KubeObject; oldObject?: KubeObject }>;
  /** Answers `authorizer` checks; absent: checks are not bound. */
  authorize?: AdmissionAuthorizer;
}

/** A denial: the HTTP code and reason kube answers with, and the message (`ValidatingAdmissionPolicy '<p>' ...`). */
export interface PolicyDenial {
  code: number;
  reason: string;
  message: string;
}

/** The outcome of validating one request against the policies. */
export interface PolicyResult {
  denied?: PolicyDenial;
  /** Warnings of bindings with the Warn action, in order. */
  warnings: string[];
  /** Audit annotations to record on the request's audit event. */
  auditAnnotations: Record<string, string>;
}
