/**
 * @kapi/cel: Kubernetes CEL for CustomResourceDefinition `x-kubernetes-validations` and admission expressions
 * (ValidatingAdmissionPolicy, webhook matchConditions), on @bufbuild/cel with kube's libraries, kube's error texts and
 * cost limits, in one shared environment.
 * @packageDocumentation
 */
export { compileSchemaRules, type CompileSchemaOptions, type CompiledSchemaRules } from './schema-rules.js';
export type { CelValidator, ValidateOptions, ValidatorOptions } from './validator.js';
export type { StructuralSchema, ValidationRule } from './schema.js';
export { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';
export { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './cost-limits.js';
export { escapeProperty } from './escape.js';
export { validFieldPath } from './field-path.js';
export * from './admission/index.js';
export type { AuthorizationAttributes, AuthorizationDecision, AuthorizationUser } from './lib/authz.js';
