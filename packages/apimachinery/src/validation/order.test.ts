import { describe, expect, it } from 'vitest';
import { orderKeys } from './order.js';
import type { FieldTree } from './types.js';

const tree: FieldTree = {
  types: {
    'v1/Thing': { props: { kind: 0, apiVersion: 0, metadata: 'v1/Meta', spec: 'v1/Spec' } },
    'v1/Meta': { props: { name: 0, namespace: 0, uid: 0, creationTimestamp: 0, labels: { m: 0 } } },
    'v1/Spec': { props: { a: 0, b: 0, c: 0 } },
  },
};

describe('orderKeys', () => {
  it("puts fields in the type's order, unknown fields after them as they came, and map keys sorted", () => {
    const obj = JSON.parse(
      '{"spec":{"zz":1,"c":3,"a":1},"apiVersion":"v1","kind":"Thing","metadata":{"labels":{"b":"2","a":"1"},"uid":"u","name":"n"}}',
    );
    orderKeys(tree, 'v1/Thing', obj);
    expect(JSON.stringify(obj)).toBe('{"kind":"Thing","apiVersion":"v1","metadata":{"name":"n","uid":"u","labels":{"a":"1","b":"2"}},"spec":{"a":1,"c":3,"zz":1}}');
  });

  it('moves only what is out of place, keeping every value (fields added last, as a create stamps them)', () => {
    const obj = JSON.parse('{"kind":"Thing","apiVersion":"v1","metadata":{"name":"n","namespace":"d","labels":{"x":"y"}}}');
    const labels = obj.metadata.labels;
    obj.metadata.uid = 'u';
    obj.metadata.creationTimestamp = 't';
    orderKeys(tree, 'v1/Thing', obj);
    expect(Object.keys(obj.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp', 'labels']);
    expect(obj.metadata.labels).toBe(labels);
    expect(obj.metadata).toEqual({ name: 'n', namespace: 'd', uid: 'u', creationTimestamp: 't', labels: { x: 'y' } });
  });

  it('keeps a key named __proto__ as an own key with its value', () => {
    const obj = JSON.parse('{"spec":{"__proto__":{"p":1},"b":2,"a":1}}');
    orderKeys(tree, 'v1/Thing', obj);
    expect(Object.keys(obj.spec)).toEqual(['a', 'b', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(obj.spec, '__proto__')?.value).toEqual({ p: 1 });
    expect(Object.getPrototypeOf(obj.spec)).toBe(Object.prototype);
  });
});
