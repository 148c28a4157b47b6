// kube's ValidatingAdmissionPolicy type checking (validating/typechecking.go): the validations' expressions and
// messageExpressions checked against the schemas of the kinds the policy matches, for `status.typeChecking`.
import { formatGroupVersionKind } from '@kapi/apimachinery';
import type { StructuralSchema } from '@kapi/cel';
import { celLibrary } from '../cel-library.js';
import type { ValidatingAdmissionPolicy } from './types.js';

/** One of `status.typeChecking.expressionWarnings`. */
export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** A kind the policy matches, with its schema. */
export interface TypedKind {
  group: string;
  version: string;
  kind: string;
  schema: StructuralSchema;
}

/** kube checks at most this many kinds per policy. */
const MAX_TYPES_TO_CHECK = 10;

/**
 * The resources kube type-checks a policy against (typesToCheck): every group/version/resource of its
 * matchConstraints' resourceRules without wildcards (subresources left out), sorted; the caller resolves them to
 * kinds and schemas.
 */
export function resourcesToCheck(policy: ValidatingAdmissionPolicy): { group: string; version: string; resource: string }[] {
  const out = new Map<string, { group: string; version: string; resource: string }>();
  for (const rule of policy.spec.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) out.set(`${group}/${version}/${resource}`, { group, version, resource });
      }
    }
  }
  return [...out.values()];
}


/**
 * kube's expressionWarnings of a policy: for each validation expression and messageExpression that does not check
 * against one of `kinds` (at most 10, sorted by group, version, kind), a warning naming each kind and the issues.
 * `params` is the paramKind's schema when known.
 */
export function typeCheckPolicy(policy: ValidatingAdmissionPolicy, kinds: readonly TypedKind[], params?: StructuralSchema): ExpressionWarning[] {
  const sorted = [...kinds]
    .sort((a, b) => a.group.localeCompare(b.group) || a.version.localeCompare(b.version) || a.kind.localeCompare(b.kind))
    .slice(0, MAX_TYPES_TO_CHECK);
  const envs = sorted.map((k) => ({
    kind: k,
    env: celLibrary().createAdmissionEnv({ params: !!policy.spec.paramKind, variables: policy.spec.variables ?? [], schemas: { object: k.schema, params } }),
  }));
  const check = (expression: string): string =>
    envs
      .map(({ kind, env }) => {
        const c = env.compile(expression, { resultType: 'any', authorizer: true });
        const issues = c.warning ?? (c.error?.startsWith('compilation failed: ') ? c.error.slice('compilation failed: '.length) : undefined);
        return issues ? `${formatGroupVersionKind(kind)}: ${issues}\n` : '';
      })
      .filter((m) => m !== '')
      .join('\n');
  const warnings: ExpressionWarning[] = [];
  (policy.spec.validations ?? []).forEach((v, i) => {
    const w = check(v.expression);
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const m = check(v.messageExpression);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
