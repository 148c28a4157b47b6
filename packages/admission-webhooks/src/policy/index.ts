// kube's ValidatingAdmissionPolicy engine: compile policies, validate requests against them and their bindings,
// and type-check policies for their status.
export { compilePolicy, PolicyCompilerCache, type CompiledPolicy, type CompiledValidation } from './compile.js';
export { policyDenialError, validateRequest, VALIDATION_FAILURE_ANNOTATION, type PolicyHook } from './dispatch.js';
export { matchesCriteria, type MatchDeps, type PolicyMatch } from './match.js';
export { BindingConfigError, collectParams } from './params.js';
export { resourcesToCheck, typeCheckPolicy, type ExpressionWarning, type TypedKind } from './typecheck.js';
export type * from './types.js';
export { validatePolicy, type AuditAnnotationResult, type PolicyDecision, type ValidateResult } from './validate.js';
