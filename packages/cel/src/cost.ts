// Runtime cost of CEL evaluation. @bufbuild/cel has no cost tracking and no interruption, so Kapi meters it itself:
// every function call (operators included) costs 1 plus a tenth of the size of its string, bytes, list and map
// arguments (kube's traversal cost factor), and every comprehension iteration costs 1 (the loop condition of each
// comprehension is wrapped in a metering call). A budget that runs out throws out of the evaluation at once.
import { CelScalar, isCelList, isCelMap, type CelFunc, type CelValue } from '@bufbuild/cel';
import type { Expr } from './ast.js';

/** kube's per-expression runtime cost limit (celconfig.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** kube's runtime cost budget for all rules of one object (celconfig.RuntimeCELCostBudget). */
export const RUNTIME_COST_BUDGET = 10_000_000;

/** Thrown out of an evaluation whose cost passed its limit (or whose deadline passed). */
export class CostLimitExceeded extends Error {
  constructor(readonly reason: 'cost' | 'time') {
    super(reason === 'cost' ? 'operation cancelled: actual cost limit exceeded' : 'operation cancelled: evaluation time limit exceeded');
  }
}

/** The cost of one evaluation, stopped when it passes `limit` or when `deadline` (epoch ms) has passed. */
export class CostTracker {
  cost = 0;
  /** Why the evaluation was stopped, once it was. */
  exceeded: 'cost' | 'time' | undefined;
  private checks = 0;
  constructor(
    readonly limit: number,
    readonly deadline?: number,
  ) {}

  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) this.exceeded = 'cost';
    else if (this.deadline !== undefined && ++this.checks % 256 === 0 && Date.now() > this.deadline) this.exceeded = 'time';
    if (this.exceeded) throw new CostLimitExceeded(this.exceeded);
  }
}

let active: CostTracker | undefined;

/** Runs `fn` with `tracker` charged by metered functions. */
export function withCostTracker<T>(tracker: CostTracker, fn: () => T): T {
  const previous = active;
  active = tracker;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

function sizeCost(v: CelValue | undefined): number {
  if (typeof v === 'string') return Math.ceil(v.length * 0.1);
  if (v instanceof Uint8Array) return Math.ceil(v.length * 0.1);
  if (isCelList(v) || isCelMap(v)) return Math.ceil(v.size * 0.1);
  return 0;
}

/** `f` charging the active tracker for each call (a fixed cost from `fixedCosts` by name, else by size). */
function metered(f: CelFunc, fixedCosts: ReadonlyMap<string, number>): CelFunc {
  const fixed = fixedCosts.get(f.name);
  return {
    [Symbol.for('@bufbuild/cel/func')]: {},
    id: f.id,
    name: f.name,
    target: f.target,
    arguments: f.arguments,
    result: f.result,
    call(id: number, target: CelValue | undefined, args: CelValue[]) {
      const result = f.call(id, target, args);
      // The group tries each overload in turn: only the one that answered is charged.
      if (active && result !== undefined) {
        let cost = fixed ?? 1 + sizeCost(target);
        if (fixed === undefined) for (const a of args) cost += sizeCost(a);
        active.charge(cost);
      }
      return result;
    },
  } as unknown as CelFunc;
}

/** The functions, each charging the active tracker when called; `fixedCosts`: kube's fixed call costs by function name. */
export function meterFunctions(funcs: Iterable<CelFunc>, fixedCosts: ReadonlyMap<string, number> = new Map()): CelFunc[] {
  return [...funcs].map((f) => metered(f, fixedCosts));
}

/** The name of the function that meters comprehension iterations. */
export const TICK = '@kapi.tick';

/** `@kapi.tick(x)`: charges 1 and returns x. */
export const tickFunction: CelFunc = {
  [Symbol.for('@bufbuild/cel/func')]: {},
  id: `${TICK}(dyn)`,
  name: TICK,
  target: undefined,
  arguments: [CelScalar.DYN],
  result: CelScalar.DYN,
  call(_id: number, _target: CelValue | undefined, args: CelValue[]) {
    active?.charge(1);
    return args[0];
  },
} as unknown as CelFunc;

/** Wraps the loop condition of every comprehension of a parsed expression in `@kapi.tick(...)`, in place. */
export function instrumentComprehensions(expr: Expr | undefined): void {
  if (!expr) return;
  const k = expr.exprKind;
  switch (k.case) {
    case 'callExpr':
      instrumentComprehensions(k.value.target);
      k.value.args.forEach(instrumentComprehensions);
      break;
    case 'listExpr':
      k.value.elements.forEach(instrumentComprehensions);
      break;
    case 'structExpr':
      for (const e of k.value.entries) {
        if (e.keyKind.case === 'mapKey') instrumentComprehensions(e.keyKind.value);
        instrumentComprehensions(e.value);
      }
      break;
    case 'selectExpr':
      instrumentComprehensions(k.value.operand);
      break;
    case 'comprehensionExpr': {
      const c = k.value;
      for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result]) instrumentComprehensions(part);
      const cond = c.loopCondition;
      if (cond) {
        c.loopCondition = {
          ...cond,
          exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: TICK, args: [cond] } },
        } as Expr;
      }
      break;
    }
    default:
      break;
  }
}
