// Evaluating rules: `self` at each node, types from the schema, kube's error texts, messages, fieldPath, reason.
import { describe, expect, it } from 'vitest';
import { compileErrors, object, resource, validatorOf } from '../test/helpers.js';

// Bounded, as kube's estimated cost limits require for rules that iterate or scan strings.
const props = {
  replicas: { type: 'integer' },
  name: { type: 'string', maxLength: 64 },
  ratio: { type: 'number' },
  when: { type: 'string', format: 'date-time' },
  timeout: { type: 'string', format: 'duration' },
  port: { 'x-kubernetes-int-or-string': true },
  labels: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 64 } },
  list: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 } },
  'foo-bar': { type: 'string', maxLength: 64 },
  namespace: { type: 'string', maxLength: 64 },
  optional: { type: 'string', maxLength: 64, nullable: true },
};
const spec = { replicas: 1, name: 'n', ratio: 0.75, when: '2019-01-01T00:00:00Z', timeout: '1m', port: 80, labels: { a: 'b' }, list: ['a'], 'foo-bar': 'x', namespace: 'ns' };
const check = (rules: unknown[], value: unknown = spec) => validatorOf(resource(object(props, rules)))({ spec: value });

describe('rule evaluation', () => {
  it('passes rules that hold', () => {
    expect(
      check([
        { rule: 'self.replicas == 1 && self.ratio > 0.5 && self.name == "n"' },
        { rule: 'self.when < timestamp("2020-01-01T00:00:00Z") && self.timeout == duration("60s")' },
        { rule: 'type(self.port) == int && self.port == 80' },
        { rule: 'self.foo__dash__bar == "x" && self.__namespace__ == "ns"' },
        { rule: 'has(self.name) && !has(self.optional) && self.labels.all(k, self.labels[k] == "b")' },
        { rule: 'self.list.exists(x, x == "a") && self.list.exists_one(x, x == "a") && self.list.filter(x, x != "a").size() == 0' },
        { rule: 'self.list.map(x, x + "!") == ["a!"]' },
      ]),
    ).toEqual([]);
  });

  it('reports a failed rule as kube: message, else failed rule', () => {
    expect(check([{ rule: 'self.replicas > 1' }, { rule: 'self.replicas > 1', message: ' replicas must be > 1 ' }])).toEqual([
      'spec: Invalid value: "object": failed rule: self.replicas > 1',
      'spec: Invalid value: "object": replicas must be > 1',
    ]);
  });

  it('reports the kube type name of the node as the bad value', () => {
    const v = validatorOf(resource(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 1' }] } })));
    expect(v({ spec: { n: 1 } })).toEqual(['spec.n: Invalid value: "integer": failed rule: self > 1']);
  });

  it('uses messageExpression, falling back to the message when it cannot be used', () => {
    expect(
      check([
        { rule: 'self.replicas > 1', messageExpression: '"replicas of " + self.name + " must be > 1"' },
        { rule: 'self.replicas > 1', message: 'fallback', messageExpression: 'self.name + "\\nx"' },
        { rule: 'self.replicas > 1', message: 'fallback', messageExpression: '" "' },
        { rule: 'self.replicas > 1', message: 'fallback', messageExpression: 'self.list[3]' },
      ]),
    ).toEqual([
      'spec: Invalid value: "object": replicas of n must be > 1',
      'spec: Invalid value: "object": fallback',
      'spec: Invalid value: "object": fallback',
      'spec: Invalid value: "object": fallback',
    ]);
  });

  it('reports at the fieldPath', () => {
    expect(check([{ rule: 'self.replicas > 1', fieldPath: '.replicas' }, { rule: 'false', fieldPath: ".labels['a.b']" }])).toEqual([
      'spec.replicas: Invalid value: "object": failed rule: self.replicas > 1',
      'spec.labels[a.b]: Invalid value: "object": failed rule: false',
    ]);
  });

  it('types the error by reason', () => {
    expect(
      check([
        { rule: 'false', message: 'm', reason: 'FieldValueForbidden' },
        { rule: 'false', message: 'm', reason: 'FieldValueRequired' },
        { rule: 'false', message: 'm', reason: 'FieldValueDuplicate' },
        { rule: 'false', message: 'm', reason: 'FieldValueInvalid' },
      ]),
    ).toEqual([
      'spec: Forbidden: m',
      'spec: Required value: m',
      'spec: Duplicate value: "object"',
      'spec: Invalid value: "object": m',
    ]);
  });

  it('reports evaluation errors as kube words them', () => {
    expect(
      check([
        { rule: 'self.labels.x == "y"' },
        { rule: 'self.replicas / 0 == 1' },
        { rule: 'self.list[5] == "a"' },
        { rule: 'self.optional == ""', message: 'optional is empty' },
        { rule: 'self.port == "80" || self.port.startsWith("8")' },
      ]),
    ).toEqual([
      'spec: Invalid value: "object": no such key: x evaluating rule: self.labels.x == "y"',
      'spec: Invalid value: "object": division by zero evaluating rule: self.replicas / 0 == 1',
      'spec: Invalid value: "object": index out of bounds: 5 evaluating rule: self.list[5] == "a"',
      'spec: Invalid value: "object": no such key: optional evaluating rule: optional is empty',
      `spec: Invalid value: "object": 'no such overload: found no matching overload for 'startsWith' applied to 'int.(string)'': call arguments did not match a supported operator, function or macro signature for rule: self.port == "80" || self.port.startsWith("8")`,
    ]);
  });

  it('evaluates rules of array items and map values per element, with their paths', () => {
    const schema = resource(
      object({
        items: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() < 3', message: 'too long' }] } },
        byName: { type: 'object', additionalProperties: object({ n: { type: 'integer' } }, [{ rule: 'self.n >= 0' }]) },
      }),
    );
    expect(validatorOf(schema)({ spec: { items: ['a', 'abcd', 'b', 'xyz'], byName: { ok: { n: 1 }, bad: { n: -1 } } } })).toEqual([
      'spec.items[1]: Invalid value: "string": too long',
      'spec.items[3]: Invalid value: "string": too long',
      'spec.byName[bad]: Invalid value: "object": failed rule: self.n >= 0',
    ]);
  });

  it('skips null values (nullable fields) and absent ones', () => {
    const schema = resource(object({ s: { type: 'string', nullable: true, 'x-kubernetes-validations': [{ rule: 'self.size() > 3' }] } }));
    expect(validatorOf(schema)({ spec: { s: null } })).toEqual([]);
    expect(validatorOf(schema)({ spec: {} })).toEqual([]);
  });

  it('sees apiVersion, kind and metadata.name at the root and in embedded resources, and only those of metadata', () => {
    const schema = object(
      {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        spec: object({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      },
      [
        { rule: "self.kind == 'Widget' && self.metadata.name.startsWith('w-') && !has(self.metadata.generateName)" },
        { rule: "self.spec.template.kind == 'Pod' && self.spec.template.metadata.name == 'p'" },
      ],
    );
    const v = validatorOf(schema);
    const obj = { apiVersion: 'x/v1', kind: 'Widget', metadata: { name: 'w-1', namespace: 'ns' }, spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } } };
    expect(v(obj)).toEqual([]);
    expect(v({ ...obj, metadata: { name: 'x' } })).toEqual([
      `<nil>: Invalid value: "object": failed rule: self.kind == 'Widget' && self.metadata.name.startsWith('w-') && !has(self.metadata.generateName)`,
    ]);
  });

  it('does not show typeless (preserve-unknown-fields) values to rules, however deep they are', () => {
    const schema = resource(
      object({ free: { 'x-kubernetes-preserve-unknown-fields': true }, blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, [
        { rule: 'has(self.blob) && self.blob == oldSelf.blob', message: 'blob changed' },
      ]),
    );
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { x: deep };
    const v = validatorOf(schema);
    // The blob's unknown content is invisible: it compares equal to any other object.
    expect(v({ spec: { free: deep, blob: deep } }, { spec: { free: deep, blob: { x: 1 } } })).toEqual([]);
    expect(compileErrors(resource(object({ free: { 'x-kubernetes-preserve-unknown-fields': true } }, [{ rule: 'has(self.free)' }])))[0]).toContain(
      "undefined field 'free'",
    );
    expect(compileErrors(resource(object({ blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, [{ rule: 'has(self.blob.x)' }])))[0]).toContain(
      "undefined field 'x'",
    );
  });

  it('prefixes the given path', () => {
    const v = validatorOf(object({ n: { type: 'integer' } }, [{ rule: 'self.n > 0' }]), { isResourceRoot: false });
    expect(v({ n: 0 }, undefined, { path: 'spec.template' })).toEqual(['spec.template: Invalid value: "object": failed rule: self.n > 0']);
  });

  it('runs rules in allOf', () => {
    const schema = resource(object({ n: { type: 'integer' } }, [], { allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.n > 0', message: 'positive' }] }] }));
    expect(validatorOf(schema)({ spec: { n: 0 } })).toEqual(['spec: Invalid value: "object": positive']);
  });
});
