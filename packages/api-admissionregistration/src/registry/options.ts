// How a caller plugs CEL compilation into admissionregistration validation (kube compiles every expression field
// while validating; this package has no CEL compiler of its own).

/**
 * Which expression field is being checked; each kind has its own CEL environment in kube:
 * - `webhookMatchCondition`: `webhooks[i].matchConditions[j].expression` (no params)
 * - `policyMatchCondition`: a ValidatingAdmissionPolicy's `spec.matchConditions[j].expression`
 * - `validation`: `spec.validations[i].expression`
 * - `messageExpression`: `spec.validations[i].messageExpression` (a string result; no authorizer)
 * - `variable`: `spec.variables[i].expression`
 * - `auditAnnotation`: `spec.auditAnnotations[i].valueExpression` (a string or null result)
 */
export type ExpressionKind = 'webhookMatchCondition' | 'policyMatchCondition' | 'validation' | 'messageExpression' | 'variable' | 'auditAnnotation';

/** What kube's compiler knows of an expression's environment (plugincel.OptionalVariableDeclarations and more). */
export interface ExpressionContext {
  /** The field path errors are reported at (`spec.validations[0].expression`). */
  field: string;
  /** Whether `params` is declared (the policy has a paramKind). */
  hasParams: boolean;
  /** Whether `authorizer` and `authorizer.requestResource` are declared. */
  hasAuthorizer: boolean;
  /**
   * Whether the expression was already in the object being updated: kube compiles those in its StoredExpressions
   * environment (every library of the newest version), new ones in NewExpressions (the compatibility version).
   */
  stored: boolean;
  /**
   * The policy's variables the expression may use as `variables.<name>`: those declared before it for a variable,
   * all of them for validations, messages and audit annotations, none for match conditions.
   */
  variables: readonly string[];
}

/** Compiles one expression: undefined when it compiles, else the compiler's message as kube reports it (`compilation failed: ERROR: ...`). */
export type CheckExpression = (expression: string, kind: ExpressionKind, context: ExpressionContext) => string | undefined;

export interface AdmissionRegistrationOptions {
  /** CEL compilation of expression fields; without it only structural checks run. */
  checkExpression?: CheckExpression;
}
