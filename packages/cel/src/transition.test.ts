// Transition rules: oldSelf on update where the old value correlates; optionalOldSelf; ratcheting.
import { describe, expect, it } from 'vitest';
import { object, resource, validatorOf } from '../test/helpers.js';

const immutable = { rule: 'self == oldSelf', message: 'is immutable' };

describe('transition rules', () => {
  const schema = resource(
    object({
      name: { type: 'string', maxLength: 63, 'x-kubernetes-validations': [immutable] },
      count: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not decrease' }] },
      byKey: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 63, 'x-kubernetes-validations': [immutable] } },
      ports: {
        type: 'array',
        maxItems: 16,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: object({ name: { type: 'string' }, port: { type: 'integer', 'x-kubernetes-validations': [immutable] } }, [], { required: ['name'] }),
      },
      tags: { type: 'array', maxItems: 16, 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 63 } },
    }),
  );
  const v = validatorOf(schema);
  const old = { spec: { name: 'a', count: 2, byKey: { k: 'v' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }], tags: ['x'] } };

  it('skips rules using oldSelf on create', () => {
    expect(v({ spec: { name: 'b', count: 0 } })).toEqual([]);
  });

  it('passes an unchanged update', () => {
    expect(v(old, old)).toEqual([]);
  });

  it('compares with the old value of object properties and map values', () => {
    const changed = structuredClone(old);
    changed.spec.name = 'b';
    changed.spec.count = 1;
    changed.spec.byKey.k = 'w';
    expect(v(changed, old)).toEqual([
      'spec.name: Invalid value: "string": is immutable',
      'spec.count: Invalid value: "integer": may not decrease',
      'spec.byKey[k]: Invalid value: "string": is immutable',
    ]);
  });

  it('correlates items of list-type=map lists by key, not by index', () => {
    const reordered = structuredClone(old);
    reordered.spec.ports = [{ name: 'https', port: 443 }, { name: 'http', port: 8080 }, { name: 'new', port: 1 }];
    expect(v(reordered, old)).toEqual(['spec.ports[1].port: Invalid value: "integer": is immutable']);
  });

  it('does not evaluate a transition rule where the old value is absent', () => {
    const added: any = structuredClone(old);
    added.spec.byKey = { k: 'v', other: 'x' };
    expect(v(added, { spec: { byKey: { k: 'v' } } })).toEqual([]);
  });

  it('gives optionalOldSelf rules an optional oldSelf, also on create', () => {
    const s = resource(
      object({ n: { type: 'integer' } }, [
        { rule: '!oldSelf.hasValue() || self.n >= oldSelf.value().n', message: 'n may not decrease', optionalOldSelf: true },
        { rule: 'oldSelf.hasValue() || self.n == 0', message: 'n starts at 0', optionalOldSelf: true },
        { rule: 'self.n >= oldSelf.orValue({"n": 0}).n', message: 'orValue', optionalOldSelf: true },
      ]),
    );
    const ov = validatorOf(s);
    expect(ov({ spec: { n: 1 } })).toEqual(['spec: Invalid value: "object": n starts at 0']);
    expect(ov({ spec: { n: 0 } })).toEqual([]);
    expect(ov({ spec: { n: 1 } }, { spec: { n: 2 } })).toEqual(['spec: Invalid value: "object": n may not decrease', 'spec: Invalid value: "object": orValue']);
  });

  it('uses oldSelf in messageExpression', () => {
    const s = resource(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', messageExpression: "'was %d, is %d'.format([oldSelf, self])" }] } }));
    expect(validatorOf(s)({ spec: { n: 1 } }, { spec: { n: 3 } })).toEqual(['spec.n: Invalid value: "integer": was 3, is 1']);
  });
});

describe('ratcheting', () => {
  const schema = resource(object({ a: { type: 'string', maxLength: 63, 'x-kubernetes-validations': [{ rule: 'self.size() < 3', message: 'too long' }] }, b: { type: 'string' } }));
  const v = validatorOf(schema);

  it('turns errors at unchanged values into warnings on update', () => {
    const warnings: string[] = [];
    expect(v({ spec: { a: 'long', b: 'new' } }, { spec: { a: 'long', b: 'old' } }, { onWarning: (w) => warnings.push(w) })).toEqual([]);
    expect(warnings).toEqual(['spec.a: Invalid value: "string": too long']);
  });

  it('keeps errors at changed values, and all errors when ratcheting is off', () => {
    expect(v({ spec: { a: 'longer' } }, { spec: { a: 'long' } })).toEqual(['spec.a: Invalid value: "string": too long']);
    expect(v({ spec: { a: 'long' } }, { spec: { a: 'long' } }, { ratcheting: false })).toEqual(['spec.a: Invalid value: "string": too long']);
  });
});
