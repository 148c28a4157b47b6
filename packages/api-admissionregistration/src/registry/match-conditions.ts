// kube's validateMatchConditions, shared by webhooks and ValidatingAdmissionPolicies.
import { validateLabelName, type FieldError } from '@kapi/apimachinery';
import { checkExpression } from './expressions.js';
import { child, duplicate, index, required, tooMany } from './errors.js';
import type { CheckExpression, ExpressionKind } from './options.js';
import { objects, text, trimSpace } from './values.js';

const MAX_MATCH_CONDITIONS = 64;

export interface MatchConditionOptions {
  check?: CheckExpression;
  kind: Extract<ExpressionKind, 'webhookMatchCondition' | 'policyMatchCondition'>;
  /** `params` is declared (a policy with a paramKind). */
  hasParams: boolean;
  /** Expressions the old object already had (kube's StoredExpressions environment). */
  stored: ReadonlySet<string>;
}

/** At most 64, names required, qualified and unique, expressions required (and compiled, trimmed, when a check is given). */
export function validateMatchConditions(conditions: unknown, options: MatchConditionOptions, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = objects(conditions);
  if (items.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(field, items.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  items.forEach((condition, i) => {
    const f = index(field, i);
    const expression = trimSpace(text(condition.expression));
    if (expression.length === 0) errs.push(required(child(f, 'expression')));
    else {
      errs.push(
        ...checkExpression(options.check, expression, options.kind, {
          field: child(f, 'expression'),
          hasParams: options.hasParams,
          hasAuthorizer: true,
          stored: options.stored.has(expression),
          variables: [],
        }),
      );
    }
    const name = text(condition.name);
    if (name.length === 0) errs.push(required(child(f, 'name')));
    else errs.push(...validateLabelName(name, child(f, 'name')));
    if (name.length > 0) {
      if (names.has(name)) errs.push(duplicate(child(f, 'name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** The match condition expressions of a list, as kube's preexisting-expression sets hold them (untrimmed). */
export const matchConditionExpressions = (conditions: unknown): string[] => objects(conditions).map((c) => text(c.expression));
