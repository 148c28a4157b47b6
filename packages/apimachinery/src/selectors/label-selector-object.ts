import type { LabelSelector } from '../generated/meta/v1/index.js';
import { aggregateMessages } from '../errors/field-errors.js';
import { newBadRequest } from '../errors/factories.js';
import { goQuote } from '../errors/go-format.js';
import { type LabelOperator, type LabelRequirement, requirementErrors } from './label-requirement.js';
import { everythingLabelSelector, labelSelectorFromRequirements, nothingLabelSelector, type ParsedLabelSelector } from './label-selector.js';

const OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * A metav1 LabelSelector object as a selector (kube's LabelSelectorAsSelector): `null`/`undefined` selects nothing,
 * `{}` selects everything, and matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist) are ANDed.
 * Throws a 400 BadRequest StatusError with kube's message for an unknown operator or an invalid key or value.
 */
export function labelSelectorFromObject(selector: LabelSelector | null | undefined): ParsedLabelSelector {
  if (selector === null || selector === undefined) return nothingLabelSelector;
  const matchLabels = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const expressions = selector.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return everythingLabelSelector;

  const requirements: LabelRequirement[] = [];
  const add = (key: string, operator: LabelOperator, values: string[] | undefined): void => {
    const errs = requirementErrors(key, operator, values);
    if (errs.length > 0) throw newBadRequest(aggregateMessages(errs));
    requirements.push({ key, operator, values: values ?? [] });
  };
  for (const [key, value] of matchLabels) add(key, '=', [value]);
  for (const expr of expressions) {
    const operator = OPERATORS[expr.operator];
    if (!Object.prototype.hasOwnProperty.call(OPERATORS, expr.operator)) {
      throw newBadRequest(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
    }
    add(expr.key, operator, expr.values && expr.values.length > 0 ? [...expr.values] : undefined);
  }
  return labelSelectorFromRequirements(requirements);
}
