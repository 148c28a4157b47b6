// The estimated worst-case cost of an expression, as cel-go's checker.EstimateCost with kube's size estimator and
// library costs computes it (Max only): kube rejects a CRD whose rules' estimates are over its static limits.
// Infinity stands for cel-go's saturated uint64.
import type { Expr } from './ast.js';
import { maxElements } from './sizes.js';
import type { StaticType } from './types.js';

const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
const UNKNOWN = Infinity;

const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b);
const factor = (x: number, f: number): number => (x === Infinity ? Infinity : Math.ceil(x * f));
const OPAQUE_O1 = new Set(['kubernetes.Quantity', 'kubernetes.Semver', 'net.IP', 'net.CIDR', 'kubernetes.URL', 'kubernetes.NamedFormat']);
const SCALARS = new Set(['bool', 'double', 'int', 'uint', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);

class Estimator {
  private readonly sizes = new Map<bigint, number>();

  constructor(
    private readonly types: Map<bigint, StaticType>,
    private readonly rootSize: number,
  ) {}

  /** The largest size of an expression's value (characters, elements), UNKNOWN when not bounded. */
  size(e: Expr | undefined): number {
    if (!e) return UNKNOWN;
    const known = this.sizes.get(e.id);
    if (known !== undefined) return known;
    const k = e.exprKind;
    if (k.case === 'constExpr') {
      const c = k.value.constantKind;
      if (c.case === 'stringValue') return [...c.value].length;
      if (c.case === 'bytesValue') return c.value.length;
      return 1;
    }
    if (k.case === 'listExpr') return k.value.elements.length;
    if (k.case === 'structExpr' && k.value.messageName === '') return k.value.entries.length;
    const t = this.types.get(e.id);
    // kube's size estimator gives every one-element path (a type name such as `int`) the size of `self`.
    if (k.case === 'identExpr' && t?.k === 'named' && t.name === 'type') return this.rootSize;
    if (t && 'schema' in t && t.schema) return maxElements(t.schema);
    if (t?.k === 'named' && SCALARS.has(t.name)) return 1;
    return UNKNOWN;
  }

  cost(e: Expr | undefined): number {
    if (!e) return 0;
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return 0;
      case 'identExpr':
        return 1;
      case 'selectExpr': {
        const operand = this.cost(k.value.operand);
        if (k.value.testOnly) return operand;
        const t = k.value.operand ? this.types.get(k.value.operand.id) : undefined;
        return operand + (t && (t.k === 'map' || t.k === 'object') ? 1 : 0);
      }
      case 'listExpr':
        return 10 + k.value.elements.reduce((n, x) => n + this.cost(x), 0);
      case 'structExpr':
        return (
          (k.value.messageName === '' ? 30 : 40) +
          k.value.entries.reduce((n, x) => n + this.cost(x.value) + (x.keyKind.case === 'mapKey' ? this.cost(x.keyKind.value) : 0), 0)
        );
      case 'comprehensionExpr': {
        const c = k.value;
        const fixed = this.cost(c.iterRange) + this.cost(c.accuInit) + this.cost(c.result);
        const range = this.size(c.iterRange);
        const perItem = this.cost(c.loopCondition) + this.cost(c.loopStep);
        const accu = c.accuInit?.exprKind.case;
        if (accu === 'listExpr' || accu === 'structExpr') this.sizes.set(e.id, range);
        return fixed + mul(range, perItem);
      }
      case 'callExpr':
        return this.call(e, k.value);
      default:
        return 0;
    }
  }

  private call(e: Expr, call: Extract<Expr['exprKind'], { case: 'callExpr' }>['value']): number {
    const args = call.args;
    const argCosts = args.map((a) => this.cost(a));
    const argSum = argCosts.reduce((a, b) => a + b, 0);
    // `sets.contains(a, b)`: a qualified function name (the checker typed no target), not a member call.
    const qualified = call.target && !this.types.has(call.target.id) ? qualifiedName(call.target) : undefined;
    if (qualified !== undefined) return this.call(e, { ...call, function: `${qualified}.${call.function}`, target: undefined });
    const target = call.target;
    const targetCost = target ? this.cost(target) : 0;
    const base = targetCost + argSum;
    const ts = target ? this.size(target) : 0;
    const as = (i: number) => this.size(args[i]);
    const tType = target ? this.types.get(target.id) : undefined;
    switch (call.function) {
      case 'dyn':
        if (args[0]) this.sizes.set(e.id, as(0));
        return 1 + argSum;
      case '_&&_':
      case '_||_':
        return argSum;
      case '_?_:_': {
        this.sizes.set(e.id, Math.max(as(1), as(2)));
        return argCosts[0] + Math.max(argCosts[1], argCosts[2]);
      }
      case '_==_':
      case '_!=_':
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': {
        const ordered = call.function !== '_==_' && call.function !== '_!=_';
        const t0 = this.types.get(args[0].id);
        // kube: equality of its opaque types is O(1).
        if (!ordered && t0?.k === 'named' && OPAQUE_O1.has(t0.name)) return 1 + base;
        if (ordered && !(t0?.k === 'named' && (t0.name === 'string' || t0.name === 'bytes'))) return 1 + base;
        return factor(Math.min(as(0), as(1)), STRING_TRAVERSAL) + base;
      }
      case '_+_': {
        const t0 = this.types.get(args[0].id);
        const size = as(0) + as(1);
        this.sizes.set(e.id, size);
        if (t0?.k === 'list') return 1 + base;
        if (t0?.k === 'named' && (t0.name === 'string' || t0.name === 'bytes')) return factor(size, STRING_TRAVERSAL) + base;
        return 1 + base;
      }
      case '@in': {
        const t1 = this.types.get(args[1].id);
        return (t1?.k === 'map' ? 1 : as(1)) + base;
      }
      case 'startsWith':
      case 'endsWith':
        return factor(as(0), STRING_TRAVERSAL) + base;
      case 'contains':
        return mul(factor(ts, STRING_TRAVERSAL), factor(as(0), STRING_TRAVERSAL)) + base;
      case 'matches':
      case 'find':
      case 'findAll':
        if (call.function !== 'matches') this.sizes.set(e.id, ts);
        return mul(factor(ts + 1, STRING_TRAVERSAL), factor(as(0), REGEX_LENGTH)) + base;
      case 'format':
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (target) {
          if (call.function !== 'format') this.sizes.set(e.id, ts);
          return factor(ts, STRING_TRAVERSAL) + base;
        }
        return 1 + base;
      case 'replace':
      case 'split':
        if (target) {
          if (call.function === 'split') this.sizes.set(e.id, ts);
          return factor(ts, 2 * STRING_TRAVERSAL) + base;
        }
        return 1 + base;
      case 'strings.quote':
      case 'url':
        return factor(as(0), STRING_TRAVERSAL) + base;
      case 'join':
        if (target && tType?.k === 'list') {
          const elem = this.elementSize(target, tType);
          const seps = args[0] ? mul(as(0), Math.max(0, ts - 1)) : 0;
          return factor(mul(ts, elem) + seps, STRING_TRAVERSAL) + base;
        }
        return 1 + base;
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf':
        if (target && tType?.k === 'list') {
          const el = tType.elem;
          const elCost = el.k === 'named' && (el.name === 'string' || el.name === 'bytes') ? 1 + factor(this.elementSize(target, tType), STRING_TRAVERSAL) : 1;
          return mul(ts, elCost) + base;
        }
        if (target) return factor(ts, STRING_TRAVERSAL) + base;
        return 1 + base;
      case 'validate':
        return factor(factor(as(0), STRING_TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH) + base;
      case 'check':
        // kube's fixed cost of an authorization check (library/cost.go), which allows two per expression.
        return 350_000 + base;
      case 'sets.contains':
      case 'sets.equivalent':
      case 'sets.intersects':
        return mul(as(0), as(1)) + base;
      default:
        return 1 + base;
    }
  }

  /** The largest size of the elements of a list: from a literal's elements, else from the element type. */
  private elementSize(e: Expr, list: Extract<StaticType, { k: 'list' }>): number {
    if (e.exprKind.case === 'listExpr') return Math.max(0, ...e.exprKind.value.elements.map((x) => this.size(x)));
    const el = list.elem;
    if ('schema' in el && el.schema) return maxElements(el.schema);
    return el.k === 'named' && SCALARS.has(el.name) ? 1 : UNKNOWN;
  }
}

function qualifiedName(e: Expr): string | undefined {
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && e.exprKind.value.operand) {
    const parent = qualifiedName(e.exprKind.value.operand);
    return parent === undefined ? undefined : `${parent}.${e.exprKind.value.field}`;
  }
  return undefined;
}

/** The estimated maximum cost of a checked expression (Infinity when unbounded). */
export function estimateCost(expr: Expr, types: Map<bigint, StaticType>, self: StaticType): number {
  const rootSize = 'schema' in self && self.schema ? maxElements(self.schema) : 0;
  return new Estimator(types, rootSize).cost(expr);
}
