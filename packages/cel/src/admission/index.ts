// The admission-expression API of @kapi/cel.
import { AdmissionActivation, type AdmissionEvaluation, type AdmissionInput, type AdmissionLimits } from './activation.js';
import { createAdmissionEnv, type AdmissionCompileOptions, type AdmissionEnvOptions, type AdmissionExpression } from './compile.js';

export {
  AdmissionActivation,
  MATCH_CONDITIONS_COST_BUDGET,
  MAX_AUTHORIZATION_ROUNDS,
  OUT_OF_BUDGET_MESSAGE,
  type AdmissionEvaluation,
  type AdmissionInput,
  type AdmissionLimits,
} from './activation.js';
export { cachingAuthorizer, type AdmissionAuthorizer } from './authorizer.js';
export {
  AdmissionEnv,
  createAdmissionEnv,
  type AdmissionCompileOptions,
  type AdmissionEnvOptions,
  type AdmissionExpression,
  type AdmissionResultType,
  type AdmissionVariableSource,
  type CompiledVariable,
} from './compile.js';
export { type AdmissionRequest, type GroupVersionKind, type GroupVersionResource } from './request.js';
export { fromCelValue, toCelValue } from './values.js';

/** One admission expression compiled in its own environment, evaluated in a fresh activation each time. */
export interface CompiledAdmissionExpression extends AdmissionExpression {
  /** Evaluates the expression for one request (async: authorizer checks are awaited). */
  evaluate(input: AdmissionInput, limits?: AdmissionLimits): Promise<AdmissionEvaluation>;
}

/**
 * Compiles one admission expression (a webhook matchCondition, say) with the declarations of `options`. For several
 * expressions sharing variables and a budget (a ValidatingAdmissionPolicy), use {@link createAdmissionEnv} and
 * {@link AdmissionActivation}.
 */
export function compileAdmissionExpression(expression: string, options: AdmissionEnvOptions & AdmissionCompileOptions = {}): CompiledAdmissionExpression {
  const env = createAdmissionEnv(options);
  const compiled = env.compile(expression, options);
  return { ...compiled, evaluate: (input, limits) => new AdmissionActivation(env, input, limits).evaluate(compiled) };
}
