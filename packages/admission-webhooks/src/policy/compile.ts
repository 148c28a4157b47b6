// Compiling a ValidatingAdmissionPolicy's expressions once per generation, as kube's validating plugin compilePolicy:
// one composited environment (variables), matchConditions and validations with the authorizer, messageExpressions
// without it, auditAnnotations' valueExpressions as string or null.
import type { AdmissionEnv, AdmissionExpression } from '@kapi/cel';
import { celLibrary } from '../cel-library.js';
import type { ValidatingAdmissionPolicy, Validation } from './types.js';

/** One compiled validation. */
export interface CompiledValidation {
  readonly validation: Validation;
  readonly expression: AdmissionExpression;
  /** The messageExpression, when the validation has one. */
  readonly messageExpression?: AdmissionExpression;
}

/** A policy's expressions, compiled. */
export interface CompiledPolicy {
  readonly policy: ValidatingAdmissionPolicy;
  readonly env: AdmissionEnv;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly matchConditions: readonly { name: string; expression: AdmissionExpression }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { key: string; valueExpression: AdmissionExpression }[];
}

/** Compiles a policy's expressions (compile errors are kept and reported when the policy is evaluated, as kube). */
export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec;
  const env = celLibrary().createAdmissionEnv({ params: !!spec.paramKind, variables: spec.variables ?? [] });
  return {
    policy,
    env,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    matchConditions: (spec.matchConditions ?? []).map((c) => ({ name: c.name, expression: env.compile(c.expression, { authorizer: true }) })),
    validations: (spec.validations ?? []).map((v) => ({
      validation: v,
      expression: env.compile(v.expression, { authorizer: true }),
      ...(v.messageExpression ? { messageExpression: env.compile(v.messageExpression, { resultType: 'string' }) } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      valueExpression: env.compile(a.valueExpression, { authorizer: true, resultType: 'string|null' }),
    })),
  };
}

/** Compiled policies cached by uid (else name) and generation: each generation of a policy is compiled once. */
export class PolicyCompilerCache {
  private readonly cache = new Map<string, { generation: number | undefined; compiled: CompiledPolicy }>();

  get(policy: ValidatingAdmissionPolicy): CompiledPolicy {
    const key = policy.metadata.uid ?? policy.metadata.name;
    const hit = this.cache.get(key);
    if (hit && hit.generation === policy.metadata.generation && hit.generation !== undefined) return hit.compiled;
    const compiled = compilePolicy(policy);
    this.cache.set(key, { generation: policy.metadata.generation, compiled });
    return compiled;
  }

  /** Forgets the policies not in `live` (by uid, else name). */
  retain(live: Iterable<ValidatingAdmissionPolicy>): void {
    const keep = new Set([...live].map((p) => p.metadata.uid ?? p.metadata.name));
    for (const k of this.cache.keys()) if (!keep.has(k)) this.cache.delete(k);
  }
}
