// A hostile rule is stopped by the cost limit with kube's error, not left to run.
import { describe, expect, it } from 'vitest';
import { object, resource, validatorOf } from '../test/helpers.js';

const cubic = 'self.list.all(a, self.list.all(b, self.list.all(c, a + b + c != "")))';
const schema = (rules: unknown[]) => resource(object({ list: { type: 'array', items: { type: 'string' } } }, rules));
const list = Array.from({ length: 300 }, (_, i) => `item-${i}`);

describe('cost limits', () => {
  it('stops a rule past the per-call limit and runs no further rules', () => {
    const v = validatorOf(schema([{ rule: cubic, message: 'cubic' }, { rule: 'false', message: 'never reached' }]));
    expect(v({ spec: { list } })).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: cubic`,
    ]);
  });

  it('lets the same rule run on a small list', () => {
    const v = validatorOf(schema([{ rule: cubic }]));
    expect(v({ spec: { list: ['a', 'b', 'c'] } })).toEqual([]);
  });

  it('stops when the budget of the whole object runs out', () => {
    const quadratic = { rule: 'self.list.all(a, self.list.all(b, a != "" && b != ""))' };
    const v = validatorOf(schema([quadratic, quadratic, quadratic, { rule: 'false' }]), { costBudget: 200_000 });
    expect(v({ spec: { list } })).toEqual([
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });

  it('meters calls on large values, not only iterations', () => {
    const v = validatorOf(schema([{ rule: 'self.list.all(a, self.list.exists(b, b == a))' }]), { perCallLimit: 10_000 });
    expect(v({ spec: { list } })[0]).toContain('call cost exceeds limit');
  });

  it('has an optional wall-clock limit', () => {
    const v = validatorOf(schema([{ rule: cubic, message: 'cubic' }]), { perCallLimit: Number.MAX_SAFE_INTEGER, costBudget: Number.MAX_SAFE_INTEGER, timeLimitMs: 0 });
    expect(v({ spec: { list } })).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: evaluation time limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: cubic`,
    ]);
  });
});
