// A static check of parsed rules. @bufbuild/cel evaluates without a type checker, so Kapi checks what kube's
// compiler rejects at CRD create/update and can be decided from the schema: undeclared variables and functions,
// fields the schema does not declare, calls no overload accepts, and the type of the result. Types it cannot
// know are `dyn` and pass.
import type { CelEnv, CelFunc } from '@bufbuild/cel';
import type { Expr, ParsedExpr } from './ast.js';
import { escapeProperty } from './escape.js';
import { hasCelType } from './values.js';
import { TICK } from './cost.js';
import { assignable, DYN, fromCelType, named, sameType, schemaType, typeName, type StaticType } from './types.js';

/** One problem found in an expression, at a character offset. */
export interface Issue {
  offset: number;
  message: string;
}

/** What the check found: problems, the result type, and whether `oldSelf` is referenced. */
export interface CheckResult {
  issues: Issue[];
  type: StaticType;
  usesOldSelf: boolean;
  /** The type of each expression node, by id. */
  types: Map<bigint, StaticType>;
}

const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);
const BOOL = named('bool');
/** kube 1.32's two-variable comprehension macros, which @bufbuild/cel's parser does not expand. */
const TWO_VARIABLE_MACROS = new Set(['all', 'exists', 'existsOne', 'exists_one', 'transformList', 'transformMap', 'transformMapEntry']);

function qualifiedName(e: Expr | undefined): string | undefined {
  if (!e) return undefined;
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly) {
    const parent = qualifiedName(e.exprKind.value.operand);
    return parent === undefined ? undefined : `${parent}.${e.exprKind.value.field}`;
  }
  return undefined;
}

function common(types: StaticType[]): StaticType {
  if (types.length === 0) return DYN;
  return types.every((t) => sameType(t, types[0])) ? types[0] : DYN;
}

class Checker {
  readonly issues: Issue[] = [];
  readonly types = new Map<bigint, StaticType>();
  usesOldSelf = false;
  private readonly groups = new Map<string, CelFunc[]>();

  constructor(
    env: CelEnv,
    private readonly parsed: ParsedExpr,
    private readonly vars: Map<string, StaticType>,
  ) {
    for (const f of env.funcs) {
      const g = this.groups.get(f.name);
      if (g) g.push(f);
      else this.groups.set(f.name, [f]);
    }
  }

  private report(e: Expr, message: string): StaticType {
    const offset = this.parsed.sourceInfo?.positions[String(e.id)] ?? 0;
    this.issues.push({ offset, message });
    return DYN;
  }

  check(e: Expr | undefined, scope: Map<string, StaticType>): StaticType {
    if (!e) return DYN;
    const t = this.checkNode(e, scope);
    this.types.set(e.id, t);
    return t;
  }

  private checkNode(e: Expr, scope: Map<string, StaticType>): StaticType {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        switch (k.value.constantKind.case) {
          case 'int64Value':
            return named('int');
          case 'uint64Value':
            return named('uint');
          case 'doubleValue':
            return named('double');
          case 'stringValue':
            return named('string');
          case 'bytesValue':
            return named('bytes');
          case 'boolValue':
            return BOOL;
          case 'nullValue':
            return named('null_type');
          default:
            return DYN;
        }
      case 'identExpr':
        return this.ident(e, k.value.name, scope);
      case 'selectExpr':
        return this.select(e, k.value, scope);
      case 'listExpr':
        return { k: 'list', elem: common(k.value.elements.map((x) => this.check(x, scope))) };
      case 'structExpr': {
        if (k.value.messageName !== '') return named(k.value.messageName);
        const keys: StaticType[] = [];
        const values: StaticType[] = [];
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') keys.push(this.check(entry.keyKind.value, scope));
          values.push(this.check(entry.value, scope));
        }
        return { k: 'map', key: common(keys), value: common(values) };
      }
      case 'comprehensionExpr':
        return this.comprehension(e, k.value, scope);
      case 'callExpr':
        return this.call(e, k.value, scope);
      default:
        return DYN;
    }
  }

  private ident(e: Expr, name: string, scope: Map<string, StaticType>): StaticType {
    const local = scope.get(name) ?? this.vars.get(name);
    if (local) {
      if (name === 'oldSelf' && !scope.has(name)) this.usesOldSelf = true;
      return local;
    }
    if (TYPE_NAMES.has(name)) return named('type');
    return this.report(e, `undeclared reference to '${name}' (in container '')`);
  }

  private select(e: Expr, sel: { operand?: Expr; field: string; testOnly: boolean }, scope: Map<string, StaticType>): StaticType {
    const qualified = qualifiedName(e);
    if (qualified !== undefined && TYPE_NAMES.has(qualified)) return named('type');
    // A variable with a qualified name (`authorizer.requestResource`) wins over field selection, as in cel-go.
    if (qualified !== undefined && !sel.testOnly && this.vars.has(qualified) && !scope.has(qualified.split('.')[0])) return this.vars.get(qualified)!;
    const operand = this.check(sel.operand, scope);
    const result = this.field(e, operand, sel.field);
    return sel.testOnly ? BOOL : result;
  }

  private field(e: Expr, operand: StaticType, field: string): StaticType {
    switch (operand.k) {
      case 'dyn':
        return DYN;
      case 'map':
        return operand.value;
      case 'object': {
        for (const [name, prop] of Object.entries(operand.schema.properties ?? {})) {
          if (escapeProperty(name) === field && hasCelType(prop)) return schemaTypeOf(prop);
        }
        return this.report(e, `undefined field '${field}'`);
      }
      case 'record': {
        const t = operand.fields.get(field);
        return t ?? this.report(e, `undefined field '${field}'`);
      }
      default:
        return this.report(e, `type '${typeName(operand)}' does not support field selection`);
    }
  }

  private comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'], scope: Map<string, StaticType>): StaticType {
    const range = this.check(c.iterRange, scope);
    let iter: StaticType = DYN;
    if (range.k === 'list') iter = range.elem;
    else if (range.k === 'map') iter = range.key;
    else if (range.k !== 'dyn') {
      this.report(c.iterRange ?? e, `expression of type '${typeName(range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`);
    }
    const accu = this.check(c.accuInit, scope);
    const inner = new Map(scope);
    inner.set(c.accuVar, accu);
    const loop = new Map(inner);
    loop.set(c.iterVar, iter);
    this.check(c.loopCondition, loop);
    this.check(c.loopStep, loop);
    return this.check(c.result, inner);
  }

  private call(e: Expr, call: Extract<Expr['exprKind'], { case: 'callExpr' }>['value'], scope: Map<string, StaticType>): StaticType {
    const fn = call.function;
    // `format.dns1123Label()`, `sets.contains(a, b)`: a qualified function name, not a member call.
    const qualified = call.target ? qualifiedName(call.target) : undefined;
    if (qualified !== undefined && this.groups.has(`${qualified}.${fn}`) && !scope.has(qualified.split('.')[0])) {
      return this.overload(e, `${qualified}.${fn}`, undefined, call.args.map((a) => this.check(a, scope)));
    }
    if (call.target && TWO_VARIABLE_MACROS.has(fn) && call.args.length >= 3 && call.args.slice(0, 2).every((a) => a.exprKind.case === 'identExpr')) {
      return this.report(e, `two-variable comprehensions ('${fn}') are not supported by Kapi's CEL`);
    }
    const target = call.target ? this.check(call.target, scope) : undefined;
    const args = call.args.map((a) => this.check(a, scope));
    switch (fn) {
      case '_&&_':
      case '_||_':
      case '@not_strictly_false':
      case '__not_strictly_false__':
        return BOOL;
      case TICK:
        return args[0] ?? DYN;
      case '_?_:_':
        return sameType(args[1], args[2]) ? args[1] : DYN;
      case '_[_]':
      case '_[?_]': {
        const [c] = args;
        if (c.k === 'list') return c.elem;
        if (c.k === 'map') return c.value;
        return DYN;
      }
      default:
        return this.overload(e, fn, target, args);
    }
  }

  private overload(e: Expr, fn: string, target: StaticType | undefined, args: StaticType[]): StaticType {
    const group = this.groups.get(fn);
    if (!group) return this.report(e, `undeclared reference to '${fn}' (in container '')`);
    const candidates = group.filter(
      (f) =>
        (f.target === undefined) === (target === undefined) &&
        f.arguments.length === args.length &&
        (target === undefined || assignable(target, f.target!)) &&
        args.every((a, i) => assignable(a, f.arguments[i])),
    );
    if (candidates.length === 0) {
      const applied = `${target ? `${typeName(target)}.` : ''}(${args.map(typeName).join(', ')})`;
      return this.report(e, `found no matching overload for '${fn}' applied to '${applied}'`);
    }
    return common(candidates.map((f) => fromCelType(f.result)));
  }
}

const schemaTypeOf = (prop: Parameters<typeof schemaType>[0]) => schemaType(prop, !!prop?.['x-kubernetes-embedded-resource']);

/** Checks a parsed expression whose free variables have the given types. */
export function checkExpression(env: CelEnv, parsed: ParsedExpr, vars: Map<string, StaticType>): CheckResult {
  const checker = new Checker(env, parsed, vars);
  const type = checker.check(parsed.expr, new Map());
  return { issues: checker.issues, type, usesOldSelf: checker.usesOldSelf, types: checker.types };
}
