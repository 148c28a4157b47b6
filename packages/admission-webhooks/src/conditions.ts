import type { KubeObject } from '@kapi/apimachinery';

/** What a CEL expression of admission sees (kube's admission CEL variables). */
export interface AdmissionCelInput {
  object: KubeObject | null;
  oldObject: KubeObject | null;
  /** The AdmissionRequest as a webhook would receive it (kind, resource, userInfo, operation, ...). */
  request: Record<string, unknown>;
  params?: KubeObject | null;
  namespaceObject?: KubeObject | null;
  /** Asks the server's authorizers (the `authorizer` variable); absent: every check errors. */
  authorize?: (attributes: Record<string, unknown>) => Promise<{ decision: string; reason?: string }>;
}

/** A compiled boolean expression: evaluates to true or false, or throws with kube's error text. */
export interface CompiledCondition {
  evaluate(input: AdmissionCelInput): Promise<boolean>;
}

/** Compiles one expression, or says why it does not compile. */
export type ConditionCompiler = (expression: string) => CompiledCondition | { error: string };

/** A webhook's or policy's matchConditions, compiled. */
export interface CompiledMatchConditions {
  readonly size: number;
  /**
   * kube's matchconditions.Matcher: every condition is evaluated; any false one means no match (even when others
   * fail); otherwise the errors are the error (kube's aggregate: one as it is, several as `[e1, e2]`).
   */
  match(input: AdmissionCelInput): Promise<{ matches: boolean; error?: string }>;
}

export function compileMatchConditions(conditions: readonly { name: string; expression: string }[], compile: ConditionCompiler): CompiledMatchConditions {
  const compiled = conditions.map((c) => ({ name: c.name, program: compile(c.expression) }));
  return {
    size: compiled.length,
    async match(input) {
      const errors: string[] = [];
      for (const { name, program } of compiled) {
        if ('error' in program) {
          errors.push(`compilation failed for matchCondition '${name}': ${program.error}`);
          continue;
        }
        try {
          if (!(await program.evaluate(input))) return { matches: false };
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
      if (errors.length) return { matches: false, error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
      return { matches: true };
    },
  };
}
