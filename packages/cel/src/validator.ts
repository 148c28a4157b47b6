// Evaluating compiled rules against an object (and its old version on update), as kube's schema/cel Validator.
import { isCelError, type CelError, type CelInput } from '@bufbuild/cel';
import { formatFieldError, type FieldError } from '@kapi/apimachinery';
import { CostLimitExceeded, CostTracker, PER_CALL_LIMIT, RUNTIME_COST_BUDGET, withCostTracker } from './cost.js';
import type { Program } from './compile.js';
import { isObject, jsonEqual, oldItemFinder } from './correlate.js';
import { checkEvaluatedMessage, evaluationErrorDetail, fieldErrorForReason, ruleErrorString, ruleMessageOrDefault } from './messages.js';
import { Optional } from './opaque.js';
import type { CompiledRule, RuleNode } from './tree.js';
import { ValueConverter } from './values.js';

/** Limits of rule evaluation. */
export interface ValidatorOptions {
  /** Cost limit of one rule evaluation (kube's PerCallLimit, 1,000,000). */
  perCallLimit?: number;
  /** Cost budget of all rules for one object (kube's RuntimeCELCostBudget, 10,000,000). */
  costBudget?: number;
  /** Wall-clock limit of one `validate` call in milliseconds (no such limit in kube; none by default). */
  timeLimitMs?: number;
}

/** Options of one {@link CelValidator.validate} call. */
export interface ValidateOptions {
  /** The field path of the validated object, prefixed to error paths (`spec.template`); default none. */
  path?: string;
  /**
   * kube's CRD validation ratcheting on update: errors of rules that do not use `oldSelf`, at values equal to their
   * correlated old values, are not errors but warnings. Default true (kube's CRDValidationRatcheting is on).
   */
  ratcheting?: boolean;
  /** Receives warnings (ratcheted errors, as kube's `e.Error()` text). */
  onWarning?: (warning: string) => void;
}

/** Validates objects against compiled `x-kubernetes-validations` rules. */
export interface CelValidator {
  /**
   * The errors of `obj` (and, on update, `old`) against the rules: failed rules as `FieldValueInvalid` (or the
   * rule's `reason`), evaluation errors, cost-limit errors. Empty when all rules pass.
   */
  validate(obj: unknown, old?: unknown, options?: ValidateOptions): FieldError[];
}

const child = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);

/** kube's `sts.Type`: the value kube shows for a failed rule (`"object"`, `"string"`, ...). */
const typeOf = (node: RuleNode): string => node.schema.type ?? '';

class Run {
  readonly errors: FieldError[] = [];
  private readonly converter = new ValueConverter();
  budget: number;
  stopped = false;
  private readonly deadline: number | undefined;

  constructor(
    private readonly limits: Required<Omit<ValidatorOptions, 'timeLimitMs'>> & { timeLimitMs?: number },
    private readonly options: ValidateOptions,
  ) {
    this.budget = limits.costBudget;
    this.deadline = limits.timeLimitMs !== undefined ? Date.now() + limits.timeLimitMs : undefined;
  }

  /**
   * Validates a node. `correlated`: whether `old` is the correlated old value (undefined when there is none);
   * `unchanged`: kube's ratcheting decision for errors at this node.
   */
  node(n: RuleNode, path: string, obj: unknown, old: unknown, unchanged: boolean): void {
    if (this.stopped || obj === null || obj === undefined) return;
    this.rules(n, path, obj, old, unchanged);
    for (const a of n.allOf ?? []) this.node(a, path, obj, old, unchanged);
    if (Array.isArray(obj) && n.items) {
      const findOld = oldItemFinder(n.schema, old);
      obj.forEach((item, i) => {
        const oldItem = findOld(item);
        this.node(n.items!, `${path}[${i}]`, item, oldItem, oldItem !== undefined ? jsonEqual(item, oldItem) : unchanged);
      });
    } else if (isObject(obj)) {
      const oldObj = isObject(old) ? old : undefined;
      for (const [k, v] of Object.entries(obj)) {
        const sub = n.additionalProperties ?? n.properties?.get(k);
        if (!sub) continue;
        const oldV = oldObj && Object.hasOwn(oldObj, k) ? oldObj[k] : undefined;
        const p = n.additionalProperties ? `${path}[${k}]` : child(path, k);
        this.node(sub, p, v, oldV, oldV !== undefined ? jsonEqual(v, oldV) : unchanged);
        if (this.stopped) return;
      }
    }
  }

  private report(e: FieldError, rule: CompiledRule, unchanged: boolean): void {
    const ratchet = this.options.ratcheting !== false && unchanged && !rule.program?.usesOldSelf;
    if (ratchet) this.options.onWarning?.(formatFieldError(e));
    else this.errors.push(e);
  }

  private evaluate(program: Program, vars: Record<string, CelInput | CelError>): { value?: unknown; error?: string; limit?: 'cost' | 'time' } {
    const tracker = new CostTracker(Math.min(this.limits.perCallLimit, Math.max(this.budget, 0) + 1), this.deadline);
    let result: ReturnType<Program['eval']> | undefined;
    try {
      result = withCostTracker(tracker, () => program.eval(vars));
    } catch (e) {
      if (!(e instanceof CostLimitExceeded)) throw e;
    }
    this.budget -= tracker.cost;
    if (tracker.exceeded) return { limit: tracker.exceeded };
    if (result !== undefined && isCelError(result)) return { error: result.message };
    return { value: result };
  }

  private rules(n: RuleNode, nodePath: string, obj: unknown, old: unknown, unchanged: boolean): void {
    if (n.rules.length === 0) return;
    // kube's root field.Path is nil and prints as `<nil>`.
    const path = nodePath === '' ? '<nil>' : nodePath;
    const type = typeOf(n);
    if (this.budget <= 0) {
      this.errors.push({ type: 'FieldValueInvalid', field: path, badValue: type, message: 'validation failed due to running out of cost budget, no further validation rules will be run' });
      this.stopped = true;
      return;
    }
    const self = this.converter.convert(obj, n.schema, n.root);
    const hasOld = old !== null && old !== undefined;
    const oldSelf = hasOld ? this.converter.convert(old, n.schema, n.root) : undefined;
    for (const compiled of n.rules) {
      const { rule, program } = compiled;
      if (compiled.error !== undefined) {
        this.errors.push({ type: 'FieldValueInvalid', field: path, badValue: type, message: `rule compile error: ${compiled.error}` });
        continue;
      }
      if (!program) continue;
      if (program.usesOldSelf && !hasOld && !rule.optionalOldSelf) continue;
      const vars: Record<string, CelInput> = { self };
      if (rule.optionalOldSelf) vars.oldSelf = hasOld ? Optional.of(oldSelf as never) : Optional.none();
      else if (hasOld) vars.oldSelf = oldSelf as CelInput;
      const budgetBefore = this.budget;
      const r = this.evaluate(program, vars);
      if (r.limit) {
        const exhausted = r.limit === 'cost' && budgetBefore < this.limits.perCallLimit;
        const cancelled = r.limit === 'cost' ? 'actual cost limit exceeded' : 'evaluation time limit exceeded';
        this.errors.push({
          type: 'FieldValueInvalid',
          field: path,
          badValue: type,
          message: exhausted
            ? 'validation failed due to running out of cost budget, no further validation rules will be run'
            : `'operation cancelled: ${cancelled}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
        });
        this.stopped = true;
        return;
      }
      if (r.error !== undefined) {
        this.errors.push({ type: 'FieldValueInvalid', field: path, badValue: type, message: evaluationErrorDetail(r.error, rule) });
        continue;
      }
      if (r.value === true) continue;
      const field = compiled.fieldPath ? child(nodePath, compiled.fieldPath) : path;
      let detail = ruleMessageOrDefault(rule);
      if (compiled.message) {
        const vars: Record<string, CelInput> = { self };
        if (hasOld) vars.oldSelf = oldSelf as CelInput;
        const m = this.evaluate(compiled.message, vars);
        if (m.limit) {
          this.report({ type: 'FieldValueInvalid', field, badValue: type, message: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}` }, compiled, unchanged);
          this.stopped = true;
          return;
        }
        if (m.error === undefined) {
          const checked = checkEvaluatedMessage(m.value);
          if ('message' in checked) detail = checked.message;
        }
      }
      this.report(fieldErrorForReason(field, type, detail, rule.reason), compiled, unchanged);
    }
  }
}

/** The validator of a compiled schema. */
export class RuleValidator implements CelValidator {
  private readonly limits: Required<Omit<ValidatorOptions, 'timeLimitMs'>> & { timeLimitMs?: number };

  constructor(
    private readonly root: RuleNode | undefined,
    options: ValidatorOptions = {},
  ) {
    this.limits = {
      perCallLimit: options.perCallLimit ?? PER_CALL_LIMIT,
      costBudget: options.costBudget ?? RUNTIME_COST_BUDGET,
      timeLimitMs: options.timeLimitMs,
    };
  }

  validate(obj: unknown, old?: unknown, options: ValidateOptions = {}): FieldError[] {
    if (!this.root) return [];
    const run = new Run(this.limits, options);
    const hasOld = old !== undefined && old !== null;
    run.node(this.root, options.path ?? '', obj, hasOld ? old : undefined, hasOld && jsonEqual(obj, old));
    return run.errors;
  }
}
