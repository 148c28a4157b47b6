// Cost limits: kube's estimated limits at CRD create/update, and the runtime limits that stop a hostile rule
// with kube's error instead of letting it run.
import { formatFieldError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { object, resource, validatorOf } from '../test/helpers.js';
import { costErrorMessage } from './cost-limits.js';
import { compileSchemaRules, type CompileSchemaOptions } from './index.js';

const cubic = 'self.list.all(a, self.list.all(b, self.list.all(c, a + b + c != "")))';
const listSchema = (rules: unknown[], bounds: { maxItems?: number; maxLength?: number } = {}) =>
  resource(object({ list: { type: 'array', maxItems: bounds.maxItems, items: { type: 'string', maxLength: bounds.maxLength } } }, rules));
const list = Array.from({ length: 300 }, (_, i) => `item-${i}`);

/** Compiles without failing on errors: a CRD already stored (or one kube rejected) still gets runtime limits. */
function compiled(schema: object, options: CompileSchemaOptions = {}) {
  const { validator, errors } = compileSchemaRules(schema, options);
  return { errors: errors.map(formatFieldError), validate: (obj: unknown) => validator.validate(obj).map(formatFieldError) };
}

const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

describe('estimated cost limits', () => {
  it('rejects a rule whose worst case over unbounded lists and strings is over the per-expression limit', () => {
    expect(compiled(listSchema([{ rule: cubic }])).errors).toEqual([
      `openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`,
      'openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      `openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
    ]);
  });

  it('accepts the same rule when maxItems and maxLength bound it', () => {
    expect(compiled(listSchema([{ rule: cubic }], { maxItems: 20, maxLength: 20 })).errors).toEqual([]);
  });

  it('multiplies by how often the rule can run (rules under unbounded lists)', () => {
    const item = { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }] };
    expect(compiled(resource(object({ names: { type: 'array', maxItems: 10, items: item } }))).errors).toEqual([]);
    expect(compiled(resource(object({ names: { type: 'array', items: item } }))).errors[0]).toContain(
      'properties[names].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of',
    );
  });

  it('leaves out per-expression errors for unchanged schemas on update, keeping the total', () => {
    const errors = compiled(listSchema([{ rule: cubic }]), { suppressPerExpressionCost: true }).errors;
    expect(errors.some((e) => e.includes('estimated rule cost exceeds budget'))).toBe(false);
    expect(errors.at(-1)).toContain('openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total');
  });

  it("words the factor as kube's getCostErrorMessage", () => {
    expect(costErrorMessage('estimated rule cost', 11_000_000, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of 1.100000x ${HINT}`);
    expect(costErrorMessage('estimated rule cost', 25_000_000, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of 2.5x ${HINT}`);
    expect(costErrorMessage('estimated rule cost', Infinity, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of more than 100x ${HINT}`);
  });
});

describe('runtime cost limits', () => {
  it('stops a rule past the per-call limit and runs no further rules', () => {
    const { validate } = compiled(listSchema([{ rule: cubic, message: 'cubic' }, { rule: 'false', message: 'never reached' }]));
    expect(validate({ spec: { list } })).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: cubic`,
    ]);
  });

  it('lets the same rule run on a small list', () => {
    const v = validatorOf(listSchema([{ rule: cubic }], { maxItems: 20, maxLength: 20 }));
    expect(v({ spec: { list: ['a', 'b', 'c'] } })).toEqual([]);
  });

  it('stops when the budget of the whole object runs out', () => {
    const quadratic = { rule: 'self.list.all(a, self.list.all(b, a != "" && b != ""))' };
    const { validate } = compiled(listSchema([quadratic, quadratic, quadratic, { rule: 'false' }]), { costBudget: 200_000 });
    expect(validate({ spec: { list } })).toEqual([
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });

  it('meters calls on large values, not only iterations', () => {
    const { validate } = compiled(listSchema([{ rule: 'self.list.all(a, self.list.exists(b, b == a))' }]), { perCallLimit: 10_000 });
    expect(validate({ spec: { list } })[0]).toContain('call cost exceeds limit');
  });

  it('has an optional wall-clock limit', () => {
    const { validate } = compiled(listSchema([{ rule: cubic, message: 'cubic' }]), {
      perCallLimit: Number.MAX_SAFE_INTEGER,
      costBudget: Number.MAX_SAFE_INTEGER,
      timeLimitMs: 0,
    });
    expect(validate({ spec: { list } })).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: evaluation time limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: cubic`,
    ]);
  });
});
