// Webhook matchConditions on @kapi/cel: kube compiles them with `object`, `oldObject`, `request`, `authorizer`
// (no params, no variables) and evaluates them with the matchConditions budget.
import type { AdmissionAuthorizer, AdmissionRequest } from '@kapi/cel';
import { celLibrary } from './cel-library.js';
import type { ConditionCompiler } from './conditions.js';

/**
 * A ConditionCompiler on @kapi/cel's admission environment. An evaluation error is thrown with kube's text
 * (`expression '<e>' resulted in error: ...`). Each condition has its own 2,500,000 budget (kube shares one between
 * a webhook's conditions).
 */
export const celConditionCompiler: ConditionCompiler = (expression) => {
  const compiled = celLibrary().compileAdmissionExpression(expression, { authorizer: true });
  if (compiled.error !== undefined) return { error: compiled.error };
  return {
    async evaluate(input) {
      const authorize = input.authorize;
      const r = await compiled.evaluate(
        {
          object: input.object,
          oldObject: input.oldObject,
          params: input.params ?? null,
          namespaceObject: input.namespaceObject ?? null,
          request: input.request as unknown as AdmissionRequest,
          authorizer: authorize ? ((a) => authorize(a as unknown as Record<string, unknown>)) as AdmissionAuthorizer : undefined,
        },
        { budget: celLibrary().MATCH_CONDITIONS_COST_BUDGET },
      );
      if (r.error !== undefined) throw new Error(r.error);
      return r.value === true;
    },
  };
};
