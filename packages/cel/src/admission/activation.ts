// Evaluating admission expressions for one request, as kube's plugin/cel activation and composition: the variables
// bound (null where kube binds null), composited variables evaluated lazily at most once per activation, kube's
// per-call limit and the activation's cost budget, and async authorizer checks resolved in rounds.
import { celError, celType, isCelError, type CelError, type CelInput, type CelValue } from '@bufbuild/cel';
import { CostLimitExceeded, CostTracker, PER_CALL_LIMIT, RUNTIME_COST_BUDGET, withCostTracker } from '../cost.js';
import type { Program } from '../compile.js';
import { authorizerValue, requestResourceValue } from '../lib/authz.js';
import { celErrorText } from '../messages.js';
import { DecisionCache, type AdmissionAuthorizer } from './authorizer.js';
import type { AdmissionEnv, AdmissionExpression, CompiledVariable } from './compile.js';
import { namespaceValue, requestValue, type AdmissionRequest } from './request.js';
import { toCelValue } from './values.js';

/** kube's text when an activation's budget runs out (plugin/cel/activation.go). */
export const OUT_OF_BUDGET_MESSAGE = 'validation failed due to running out of cost budget, no further validation rules will be run';
/** kube's budget of one request's matchConditions (celconfig.RuntimeCELCostBudgetMatchConditions). */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;
/** How many times one expression is evaluated again for authorizer answers before Kapi gives up. */
export const MAX_AUTHORIZATION_ROUNDS = 8;

/** What one request binds to the variables of admission expressions. */
export interface AdmissionInput {
  /** The object (null on DELETE, as kube). */
  object: unknown;
  /** The old object (null on CREATE, as kube). */
  oldObject: unknown;
  /** The param object; null or absent when the policy has no paramKind or the binding no paramRef. */
  params?: unknown;
  /** The request's Namespace object; null or absent for cluster-scoped requests. */
  namespaceObject?: unknown;
  request: AdmissionRequest;
  /**
   * Answers `authorizer` checks; absent: `authorizer` is not bound (kube binds none for messageExpressions and
   * auditAnnotations). Wrap it with {@link cachingAuthorizer} to share answers between activations of one request.
   */
  authorizer?: AdmissionAuthorizer;
}

/** Limits of one activation. */
export interface AdmissionLimits {
  /** The cost limit of one expression (kube's PerCallLimit, 1,000,000). */
  perCallLimit?: number;
  /** The cost budget of all expressions of the activation (kube's RuntimeCELCostBudget, 10,000,000). */
  budget?: number;
}

/** The outcome of one evaluation. */
export type AdmissionEvaluation =
  | { value: CelValue; /** cel-go's name of the value's type (`bool`, `string`, `null_type`...). */ type: string; error?: undefined; outOfBudget?: undefined }
  /**
   * kube's evaluation error (`compilation error: ...`, `expression '<e>' resulted in error: ...`). With `outOfBudget`
   * the activation's budget ran out: kube stops evaluating the rest (the text is {@link OUT_OF_BUDGET_MESSAGE}).
   */
  | { value?: undefined; type?: undefined; error: string; outOfBudget?: boolean };

const CEL_MAP_BRAND: unique symbol = Symbol.for('@bufbuild/cel/map') as never;

/** The lazily evaluated, memoized `variables` map (kube's lazy.MapValue), a CelMap by @bufbuild/cel's brand. */
class LazyVariables {
  readonly [CEL_MAP_BRAND] = {};
  private readonly memo = new Map<string, CelValue | CelError>();
  private readonly byName: Map<string, CompiledVariable>;

  constructor(
    variables: readonly CompiledVariable[],
    private readonly run: (v: CompiledVariable) => CelValue | CelError | undefined,
  ) {
    this.byName = new Map(variables.map((v) => [v.name, v]));
  }

  get size(): number {
    return this.byName.size;
  }
  has(key: unknown): boolean {
    return typeof key === 'string' && this.byName.has(key);
  }
  get(key: unknown): CelValue | CelError | undefined {
    if (typeof key !== 'string') return undefined;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const v = this.byName.get(key);
    if (!v) return undefined;
    const result = this.run(v);
    // undefined: the evaluation waits for authorizer answers and is not memoized.
    if (result === undefined) return celError(`composited variable "${key}" is waiting for authorization`);
    this.memo.set(key, result);
    return result;
  }
  keys(): IterableIterator<string> {
    return this.byName.keys();
  }
  *values(): IterableIterator<CelValue | CelError | undefined> {
    for (const k of this.byName.keys()) yield this.get(k);
  }
  *entries(): IterableIterator<[string, CelValue | CelError | undefined]> {
    for (const k of this.byName.keys()) yield [k, this.get(k)];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(fn: (v: unknown, k: string, m: unknown) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/**
 * One activation (kube's evaluationActivation with its composition context): the values of one request, its
 * composited variables memoized, and a cost budget spent by each evaluation.
 */
export class AdmissionActivation {
  /** What is left of the budget. */
  remainingBudget: number;
  private readonly perCallLimit: number;
  private readonly decisions: DecisionCache | undefined;
  private readonly vars: Record<string, CelInput>;
  /** The cost of variables evaluated since the last evaluation was charged (kube's composition cost). */
  private variableCost = 0;
  private outOfBudget = false;

  constructor(env: AdmissionEnv, input: AdmissionInput, limits: AdmissionLimits = {}) {
    this.remainingBudget = limits.budget ?? RUNTIME_COST_BUDGET;
    this.perCallLimit = limits.perCallLimit ?? PER_CALL_LIMIT;
    this.decisions = input.authorizer ? new DecisionCache(input.authorizer) : undefined;
    const r = input.request;
    this.vars = {
      object: toCelValue(input.object ?? null),
      oldObject: toCelValue(input.oldObject ?? null),
      params: toCelValue(input.params ?? null),
      namespaceObject: namespaceValue(input.namespaceObject),
      request: requestValue(r),
      variables: new LazyVariables(env.variables, (v) => this.runVariable(v)) as unknown as CelInput,
    };
    if (this.decisions) {
      const user = { username: r.userInfo.username, uid: r.userInfo.uid, groups: r.userInfo.groups ?? [], extra: r.userInfo.extra };
      this.vars.authorizer = authorizerValue(user, this.decisions);
      this.vars['authorizer.requestResource'] = requestResourceValue(user, this.decisions, {
        group: r.resource.group,
        resource: r.resource.resource,
        subresource: r.subResource ?? '',
        namespace: r.namespace ?? '',
        name: r.name ?? '',
      });
    }
  }

  /** Runs a program once under its own per-call limit; `pending`: it asked for an authorizer answer not known yet. */
  private runOnce(program: Program): { result: CelValue | CelError | undefined; cost: number; exceeded: boolean; pending: boolean } {
    const tracker = new CostTracker(this.perCallLimit);
    const asked = this.decisions?.asked ?? 0;
    let result: CelValue | CelError | undefined;
    try {
      result = withCostTracker(tracker, () => program.eval(this.vars));
    } catch (e) {
      if (!(e instanceof CostLimitExceeded)) throw e;
    }
    return { result, cost: tracker.cost, exceeded: tracker.exceeded !== undefined, pending: (this.decisions?.asked ?? 0) > asked };
  }

  private runVariable(v: CompiledVariable): CelValue | CelError | undefined {
    if (v.error !== undefined || !v.program) return celError(`composited variable "${v.name}" fails to compile: ${v.error}`);
    const r = this.runOnce(v.program);
    // A pending check also retries a run that went over the limit: with the error in place of the answer, CEL may
    // have evaluated branches the answer would have cut short.
    if (r.pending) return undefined;
    this.variableCost += r.cost;
    if (r.exceeded) return celError(`composited variable "${v.name}" fails to evaluate: operation cancelled: actual cost limit exceeded`);
    if (r.result === undefined || isCelError(r.result)) return celError(`composited variable "${v.name}" fails to evaluate: ${celErrorText(r.result?.message ?? 'no result')}`);
    return r.result;
  }

  /**
   * Evaluates a compiled expression. Authorizer checks not known yet are asked for and the expression evaluated again
   * with their answers (at most {@link MAX_AUTHORIZATION_ROUNDS} times). Once the budget ran out, every evaluation
   * answers `outOfBudget`.
   */
  async evaluate(expr: AdmissionExpression): Promise<AdmissionEvaluation> {
    if (this.outOfBudget) return { error: OUT_OF_BUDGET_MESSAGE, outOfBudget: true };
    if (expr.error !== undefined) return { error: `compilation error: ${expr.error}` };
    if (!expr.program) return { error: 'unexpected internal error compiling expression' };
    let r = this.runOnce(expr.program);
    for (let round = 1; r.pending && this.decisions; round++) {
      if (round > MAX_AUTHORIZATION_ROUNDS) {
        return { error: `expression '${expr.expression}' resulted in error: more than ${MAX_AUTHORIZATION_ROUNDS} rounds of authorization checks` };
      }
      await this.decisions.fetchPending();
      r = this.runOnce(expr.program);
    }
    const composition = this.variableCost;
    this.variableCost = 0;
    if (composition > this.remainingBudget) return this.exhausted();
    this.remainingBudget -= composition;
    if (r.cost > this.remainingBudget) return this.exhausted();
    this.remainingBudget -= r.cost;
    const failed = (detail: string) => ({ error: `expression '${expr.expression}' resulted in error: ${detail}` });
    if (r.exceeded) return failed('operation cancelled: actual cost limit exceeded');
    if (r.result === undefined) return failed('no result');
    if (isCelError(r.result)) return failed(celErrorText(r.result.message));
    return { value: r.result, type: celType(r.result).name };
  }

  private exhausted(): AdmissionEvaluation {
    this.outOfBudget = true;
    this.remainingBudget = -1;
    return { error: OUT_OF_BUDGET_MESSAGE, outOfBudget: true };
  }
}
