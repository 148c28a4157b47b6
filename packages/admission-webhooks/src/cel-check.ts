// The CEL check of admissionregistration's expression fields on @kapi/cel (kube compiles each one while
// validating a webhook configuration or a policy, and refuses the object when one does not compile).
import type { CheckExpression, ExpressionKind } from '@kapi/api-admissionregistration';
import { celLibrary } from './cel-library.js';

const RESULT: Record<ExpressionKind, 'bool' | 'string' | 'string|null' | 'any'> = {
  webhookMatchCondition: 'bool',
  policyMatchCondition: 'bool',
  validation: 'bool',
  messageExpression: 'string',
  variable: 'any',
  auditAnnotation: 'string|null',
};

/**
 * Compiles one expression field in its kube environment: `params` when the policy has a paramKind, `authorizer`
 * where kube declares it, the policy's variables before it (as `dyn`: their own expressions are checked at their
 * own fields), and the result type the field needs. Undefined when it compiles, else kube's message.
 */
export const celCheckExpression: CheckExpression = (expression, kind, context) => {
  const env = celLibrary().createAdmissionEnv({ params: context.hasParams, variables: context.variables.map((name) => ({ name, expression: 'dyn(null)' })) });
  return env.compile(expression, { resultType: RESULT[kind], authorizer: context.hasAuthorizer }).error;
};
