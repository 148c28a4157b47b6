// compileSchemaRules: every x-kubernetes-validations rule of a structural schema compiled, with the errors kube
// reports for them at CRD create/update.
import type { FieldError } from '@kapi/apimachinery';
import { compileExpression, type CompileResult } from './compile.js';
import { validFieldPath } from './field-path.js';
import { CostTotal, costErrorMessage, STATIC_ESTIMATED_COST_LIMIT } from './cost-limits.js';
import { isMapList, mapValueSchema, type StructuralSchema, type ValidationRule } from './schema.js';
import { childCardinality, unboundedCardinality } from './sizes.js';
import type { CompiledRule, RuleNode } from './tree.js';
import { named, schemaType, type StaticType } from './types.js';
import { RuleValidator, type CelValidator, type ValidatorOptions } from './validator.js';

/** Options of {@link compileSchemaRules}. */
export interface CompileSchemaOptions extends ValidatorOptions {
  /**
   * The field path of the schema itself, prefixed to the paths of compile errors
   * (`spec.versions[0].schema.openAPIV3Schema`). Default `openAPIV3Schema`.
   */
  schemaPath?: string;
  /** Whether the schema is the root of a resource (apiVersion, kind and metadata.name visible to rules). Default true. */
  isResourceRoot?: boolean;
  /**
   * Leave out the per-expression estimated cost errors, as kube does on a CRD update for a version whose schema did
   * not change. The estimated total of the schema is still checked.
   */
  suppressPerExpressionCost?: boolean;
}

/** The result of {@link compileSchemaRules}. */
export interface CompiledSchemaRules {
  /** Validates objects against the rules that compiled (a rule that did not reports its error on every object, as kube). */
  validator: CelValidator;
  /** The problems kube reports at CRD create/update: invalid rule fields and compile errors, with field paths. */
  errors: FieldError[];
}

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** Where a schema node is: its field path, whether it is a resource root, the nearest list whose items do not
 * correlate (oldSelf is forbidden under it), and how often its value can occur in one object (undefined: unbounded). */
interface NodeContext {
  path: string;
  root: boolean;
  uncorrelatable: string | undefined;
  cardinality: number | undefined;
}

class SchemaCompiler {
  readonly errors: FieldError[] = [];
  readonly costs = new CostTotal();

  constructor(private readonly suppressPerExpressionCost: boolean) {}

  /**
   * The rules of the validation schema `v` at a node whose types are those of the node schema `s` (the same schema,
   * except in an `allOf` entry, which declares rules but no types).
   */
  node(v: StructuralSchema, s: StructuralSchema, ctx: NodeContext): RuleNode | undefined {
    if (!v || typeof v !== 'object' || !s || typeof s !== 'object') return undefined;
    const { path, uncorrelatable, cardinality } = ctx;
    const rules = this.rules(v, s, ctx);
    const embedded = (x: StructuralSchema) => !!x['x-kubernetes-embedded-resource'];
    const properties = new Map<string, RuleNode>();
    for (const [k, p] of Object.entries(v.properties ?? {})) {
      const sp = s.properties && Object.hasOwn(s.properties, k) ? s.properties[k] : undefined;
      if (!sp) continue;
      const n = this.node(p, sp, { path: `${path}.properties[${k}]`, root: embedded(sp), uncorrelatable, cardinality: childCardinality(cardinality, s, false) });
      if (n) properties.set(k, n);
    }
    const vValues = mapValueSchema(v);
    const sValues = mapValueSchema(s);
    const additionalProperties =
      vValues && sValues
        ? this.node(vValues, sValues, { path: `${path}.additionalProperties`, root: embedded(sValues), uncorrelatable, cardinality: childCardinality(cardinality, s, true) })
        : undefined;
    const items =
      v.items && s.items
        ? this.node(v.items, s.items, {
            path: `${path}.items`,
            root: embedded(s.items),
            uncorrelatable: isMapList(s) ? uncorrelatable : (uncorrelatable ?? path),
            cardinality: childCardinality(cardinality, s, true),
          })
        : undefined;
    const allOf = (v.allOf ?? [])
      .map((a, i) => this.node(a, s, { ...ctx, path: `${path}.allOf[${i}]` }))
      .filter((n): n is RuleNode => !!n);
    if (rules.length === 0 && properties.size === 0 && !additionalProperties && !items && allOf.length === 0) return undefined;
    return {
      schema: s,
      root: ctx.root,
      rules,
      properties: properties.size ? properties : undefined,
      additionalProperties,
      items,
      allOf: allOf.length ? allOf : undefined,
    };
  }

  /** kube's check of an expression's estimated cost, times how often the node can occur; added to the total. */
  private observeCost(what: 'rule' | 'messageExpression', field: string, maxCost: number, s: StructuralSchema, cardinality: number | undefined): void {
    const cost = maxCost === 0 ? 0 : maxCost * (cardinality ?? unboundedCardinality(s));
    if (cost > STATIC_ESTIMATED_COST_LIMIT && !this.suppressPerExpressionCost) {
      this.errors.push({ type: 'FieldValueForbidden', field, message: costErrorMessage(`estimated ${what} cost`, cost, STATIC_ESTIMATED_COST_LIMIT) });
    }
    this.costs.observe(field, cost);
  }

  /** kube's checks of a rule's fields before compiling (schema errors); true when there were none. */
  private ruleFieldsValid(rule: ValidationRule, s: StructuralSchema, at: string): boolean {
    const before = this.errors.length;
    const err = (type: FieldError['type'], field: string, message: string, badValue?: unknown) =>
      this.errors.push({ type, field: `${at}.${field}`, message, ...(badValue !== undefined ? { badValue } : {}) });
    const rawRule = typeof rule.rule === 'string' ? rule.rule : '';
    const msg = rule.message ?? '';
    if (rawRule.trim() === '') err('FieldValueRequired', 'rule', 'rule is not specified');
    else if (msg.length > 0 && msg.trim() === '') err('FieldValueInvalid', 'message', 'message must be non-empty if specified', msg);
    else if (hasNewlines(msg.trim())) err('FieldValueInvalid', 'message', 'message must not contain line breaks', msg);
    else if (hasNewlines(rawRule.trim()) && msg.trim() === '') err('FieldValueRequired', 'message', 'message must be specified if rule contains line breaks');
    if (rule.messageExpression !== undefined && rule.messageExpression.length > 0 && rule.messageExpression.trim() === '') {
      err('FieldValueRequired', 'messageExpression', 'messageExpression must be non-empty if specified');
    }
    if (rule.reason !== undefined && !REASONS.includes(rule.reason)) {
      err('FieldValueNotSupported', 'reason', `supported values: ${REASONS.map((r) => JSON.stringify(r)).join(', ')}`, rule.reason);
    }
    if (rule.fieldPath !== undefined) {
      if (rule.fieldPath.length > 0 && rule.fieldPath.trim() === '') err('FieldValueInvalid', 'fieldPath', 'fieldPath must be non-empty if specified', rule.fieldPath);
      if (hasNewlines(rule.fieldPath)) err('FieldValueInvalid', 'fieldPath', 'fieldPath must not contain line breaks', rule.fieldPath);
      if (rule.fieldPath.length > 0) {
        try {
          validFieldPath(rule.fieldPath, s);
        } catch {
          err('FieldValueInvalid', 'fieldPath', 'fieldPath must be a valid path', rule.fieldPath);
        }
      }
    }
    return this.errors.length === before;
  }

  private rules(v: StructuralSchema, s: StructuralSchema, { path, root, uncorrelatable, cardinality }: NodeContext): CompiledRule[] {
    const list = v['x-kubernetes-validations'] ?? [];
    if (list.length === 0) return [];
    const selfType = schemaType(s, root);
    const fieldsValid = list.map((rule, i) => this.ruleFieldsValid(rule, s, `${path}.x-kubernetes-validations[${i}]`));
    return list.map((rule, i) => {
      const at = `${path}.x-kubernetes-validations[${i}]`;
      const source = typeof rule.rule === 'string' ? rule.rule : '';
      if (source.trim() === '') return { rule };
      const vars = new Map<string, StaticType>([
        ['self', selfType],
        ['oldSelf', rule.optionalOldSelf ? named('optional_type') : selfType],
      ]);
      const compiled: CompileResult = compileExpression(source, vars, 'bool');
      let message: CompiledRule['message'];
      let fieldPath: string | undefined;
      if (compiled.program && rule.messageExpression && rule.messageExpression.trim() !== '') {
        // kube evaluates messageExpression with the non-optional oldSelf activation.
        const m = compileExpression(rule.messageExpression, new Map([['self', selfType], ['oldSelf', selfType]]), 'string');
        if (m.error !== undefined) {
          if (fieldsValid.every(Boolean)) this.errors.push({ type: 'FieldValueInvalid', field: `${at}.messageExpression`, badValue: rule, message: m.error });
        } else message = m.program;
      }
      if (rule.fieldPath) {
        try {
          fieldPath = validFieldPath(rule.fieldPath, s);
        } catch {
          fieldPath = undefined;
        }
      }
      if (fieldsValid.every(Boolean)) {
        this.observeCost('rule', `${at}.rule`, compiled.program?.maxCost ?? 0, s, cardinality);
        if (message) this.observeCost('messageExpression', `${at}.messageExpression`, message.maxCost, s, cardinality);
        if (compiled.error !== undefined) {
          this.errors.push({ type: 'FieldValueInvalid', field: `${at}.rule`, badValue: rule, message: compiled.error });
        } else if (compiled.program.usesOldSelf) {
          if (uncorrelatable !== undefined) {
            this.errors.push({
              type: 'FieldValueInvalid',
              field: `${at}.rule`,
              badValue: source,
              message: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
            });
          }
        } else if (rule.optionalOldSelf !== undefined) {
          this.errors.push({ type: 'FieldValueInvalid', field: `${at}.optionalOldSelf`, badValue: rule.optionalOldSelf, message: 'may not be set if oldSelf is not used in rule' });
        }
      }
      return compiled.error !== undefined ? { rule, error: compiled.error } : { rule, program: compiled.program, message, fieldPath };
    });
  }
}

/**
 * Compiles every `x-kubernetes-validations` rule of a structural schema (a CRD version's `openAPIV3Schema` as plain
 * JSON). Returns a validator for objects of the schema and the errors kube reports for the rules when the CRD is
 * created or updated: `<schemaPath>.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ...:
 * compilation failed: ...`, invalid `message`, `reason`, `fieldPath` and `optionalOldSelf` fields, and `oldSelf`
 * under lists whose items do not correlate.
 */
export function compileSchemaRules(schema: object, options: CompileSchemaOptions = {}): CompiledSchemaRules {
  const compiler = new SchemaCompiler(options.suppressPerExpressionCost ?? false);
  const schemaPath = options.schemaPath ?? 'openAPIV3Schema';
  const s = schema as StructuralSchema;
  const root = compiler.node(s, s, { path: schemaPath, root: options.isResourceRoot ?? true, uncorrelatable: undefined, cardinality: 1 });
  return { validator: new RuleValidator(root, options), errors: [...compiler.errors, ...compiler.costs.errors(schemaPath)] };
}
