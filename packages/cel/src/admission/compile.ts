// Compiling admission expressions (ValidatingAdmissionPolicy validations, matchConditions, messageExpressions,
// auditAnnotations, variables; webhook matchConditions) in the shared environment, as kube's plugin/cel compiler:
// the declared variables, kube's result-type errors, and composited variables.
import { compileProgram, parseAndCheck, type Program } from '../compile.js';
import { AUTHORIZER, RESOURCE_CHECK } from '../opaque.js';
import type { StructuralSchema } from '../schema.js';
import { DYN, named, schemaType, typeName, type StaticType } from '../types.js';
import { NAMESPACE_TYPE, REQUEST_TYPE } from './request.js';

/** The type an admission expression must have: `bool` (validations, matchConditions), `string` (messageExpression),
 * `string|null` (auditAnnotations valueExpression), `any` (variables). */
export type AdmissionResultType = 'bool' | 'string' | 'string|null' | 'any';

/** A composited variable (`spec.variables[i]`): `variables.<name>` in later variables and expressions. */
export interface AdmissionVariableSource {
  name: string;
  expression: string;
}

/** What an admission environment declares (kube's OptionalVariableDeclarations and composition). */
export interface AdmissionEnvOptions {
  /** Declare `params` (kube: the policy has a `paramKind`). Default false. */
  params?: boolean;
  /**
   * Composited variables, compiled in order (each sees the ones before it) and declared as `variables.<name>`. Leave
   * undefined where kube has no composition (webhook matchConditions): `variables` is then undeclared.
   */
  variables?: readonly AdmissionVariableSource[];
  /**
   * Structural schemas of `object`/`oldObject` and of `params`, when known. They only type-check expressions for
   * warnings (kube's VAP `status.typeChecking`); compilation and evaluation stay dynamic, as kube's.
   */
  schemas?: { object?: StructuralSchema; params?: StructuralSchema };
}

/** Options of one compilation. */
export interface AdmissionCompileOptions {
  /** The type the result must have. Default `bool`. */
  resultType?: AdmissionResultType;
  /** Declare `authorizer` and `authorizer.requestResource` (kube: validations, matchConditions, variables). */
  authorizer?: boolean;
}

/** A compiled admission expression. */
export interface AdmissionExpression {
  readonly expression: string;
  /** kube's compile error (`compilation failed: ERROR: <input>:1:1: ...`, `must evaluate to bool but got dyn`). */
  readonly error?: string;
  /** Type-checking issues against `schemas` (cel-go's issue text), when schemas were given and it does not check. */
  readonly warning?: string;
  /** The estimated worst-case cost of one evaluation (Infinity when unbounded). */
  readonly maxCost: number;
  /** The program, when it compiled. */
  readonly program?: Program;
}

/** A compiled composited variable. */
export interface CompiledVariable extends AdmissionExpression {
  readonly name: string;
}

const RESULT_NAMES: Record<Exclude<AdmissionResultType, 'any'>, string[]> = { bool: ['bool'], string: ['string'], 'string|null': ['string', 'null_type'] };

/** kube's text for a result of the wrong type (plugin/cel/compile.go). */
function resultError(expected: AdmissionResultType, t: StaticType): string | undefined {
  if (expected === 'any') return undefined;
  const names = RESULT_NAMES[expected];
  const got = typeName(t);
  if (names.includes(got)) return undefined;
  return names.length === 1 ? `must evaluate to ${names[0]} but got ${got}` : `must evaluate to one of [${names.join(' ')}] but got ${got}`;
}

/** The compiled variables and declarations of one admission environment. */
export class AdmissionEnv {
  /** The composited variables, compiled in order (a variable that failed to compile has `error`). */
  readonly variables: readonly CompiledVariable[];
  private readonly variablesType: StaticType | undefined;
  private readonly typedVariablesType: StaticType | undefined;

  constructor(private readonly options: AdmissionEnvOptions = {}) {
    const fields = new Map<string, StaticType>();
    const typedFields = new Map<string, StaticType>();
    const compiled: CompiledVariable[] = [];
    if (options.variables) {
      for (const v of options.variables) {
        const c = this.compileWith(v.expression, { resultType: 'any', authorizer: true }, { k: 'record', name: 'kubernetes.variables', fields: new Map(fields) }, { k: 'record', name: 'kubernetes.variables', fields: new Map(typedFields) });
        compiled.push({ ...c.expression, name: v.name });
        fields.set(v.name, c.type ?? DYN);
        typedFields.set(v.name, c.typedType ?? c.type ?? DYN);
      }
      this.variablesType = { k: 'record', name: 'kubernetes.variables', fields };
      this.typedVariablesType = { k: 'record', name: 'kubernetes.variables', fields: typedFields };
    }
    this.variables = compiled;
  }

  /** Compiles an expression against this environment's declarations. */
  compile(expression: string, options: AdmissionCompileOptions = {}): AdmissionExpression {
    return this.compileWith(expression, options, this.variablesType, this.typedVariablesType).expression;
  }

  private declarations(authorizer: boolean, variables: StaticType | undefined, typed: boolean): Map<string, StaticType> {
    const schemas = typed ? this.options.schemas : undefined;
    const object = schemas?.object ? schemaType(schemas.object, true) : DYN;
    const vars = new Map<string, StaticType>([
      ['object', object],
      ['oldObject', object],
      ['request', REQUEST_TYPE],
      ['namespaceObject', NAMESPACE_TYPE],
    ]);
    if (this.options.params) vars.set('params', schemas?.params ? schemaType(schemas.params, true) : DYN);
    if (authorizer) {
      vars.set('authorizer', named(AUTHORIZER.celType.name));
      vars.set('authorizer.requestResource', named(RESOURCE_CHECK.celType.name));
    }
    if (variables) vars.set('variables', variables);
    return vars;
  }

  private compileWith(
    expression: string,
    options: AdmissionCompileOptions,
    variables: StaticType | undefined,
    typedVariables: StaticType | undefined,
  ): { expression: AdmissionExpression; type?: StaticType; typedType?: StaticType } {
    const authorizer = options.authorizer ?? false;
    const expected = options.resultType ?? 'bool';
    const r = compileProgram(expression, this.declarations(authorizer, variables, false), {
      issuePrefix: 'compilation failed',
      resultError: (t) => resultError(expected, t),
    });
    if (r.error !== undefined) return { expression: { expression, error: r.error, maxCost: 0 } };
    let warning: string | undefined;
    let typedType: StaticType | undefined;
    if (this.options.schemas?.object || this.options.schemas?.params) {
      const typed = parseAndCheck(expression, this.declarations(authorizer, typedVariables, true));
      if ('issues' in typed) warning = typed.issues;
      else typedType = typed.checked.type;
    }
    return { expression: { expression, program: r.program, maxCost: r.program.maxCost, ...(warning ? { warning } : {}) }, type: r.type, typedType };
  }
}

/** An admission environment: declarations, composited variables, and optional schemas for type-checking. */
export function createAdmissionEnv(options: AdmissionEnvOptions = {}): AdmissionEnv {
  return new AdmissionEnv(options);
}
