import { describe, expect, it } from 'vitest';
import type { FieldTree } from './types.js';
import { findUnknownFields } from './unknown-fields.js';

const tree: FieldTree = {
  types: {
    'v1/Thing': { props: { apiVersion: 0, kind: 0, metadata: 'v1/Meta', spec: 'v1/Thing.Spec', extra: '*' } },
    'v1/Meta': { props: { name: 0, labels: { m: 0 } } },
    'v1/Thing.Spec': { props: { items: { a: 'v1/Item' }, byName: { m: 'v1/Item' }, open: 'v1/Open' } },
    'v1/Item': { props: { name: 0 } },
    'v1/Open': { props: { known: 0 }, preserveUnknown: true },
  },
};

describe('findUnknownFields', () => {
  const object = () => ({
    kind: 'Thing',
    metadata: { name: 'a', labels: { x: 'y' }, bogus: 1 },
    spec: {
      items: [{ name: 'one' }, { name: 'two', color: 'red' }],
      byName: { first: { name: 'x', size: 2 } },
      open: { known: 1, anything: { goes: true } },
      typo: true,
    },
    extra: { free: { form: 1 } },
    top: 1,
  });

  it('names every unknown field with kube-style paths, in document order', () => {
    expect(findUnknownFields(tree, 'v1/Thing', object())).toEqual([
      'metadata.bogus',
      'spec.items[1].color',
      'spec.byName[first].size',
      'spec.typo',
      'top',
    ]);
  });

  it('leaves the object alone unless asked to prune, then removes exactly those fields', () => {
    const untouched = object();
    findUnknownFields(tree, 'v1/Thing', untouched);
    expect(untouched).toEqual(object());

    const pruned = object();
    findUnknownFields(tree, 'v1/Thing', pruned, { prune: true });
    expect(pruned).toEqual({
      kind: 'Thing',
      metadata: { name: 'a', labels: { x: 'y' } },
      spec: {
        items: [{ name: 'one' }, { name: 'two' }],
        byName: { first: { name: 'x' } },
        open: { known: 1, anything: { goes: true } },
      },
      extra: { free: { form: 1 } },
    });
  });

  it('walks a union as the alternative its JSON type fits (a schema or a list of schemas)', () => {
    const schemas: FieldTree = {
      types: {
        'v1/Schema': {
          props: { type: 0, items: { u: ['v1/Schema', { a: 'v1/Schema' }] }, additionalProperties: 'v1/Schema', dependencies: { m: { u: ['v1/Schema', { a: 0 }] } } },
        },
      },
    };
    const value = {
      items: { type: 'object', bogus: 1, items: [{ type: 'string', typo: 2 }] },
      additionalProperties: true,
      dependencies: { a: ['b'], c: { extra: 3 }, d: null },
    };
    expect(findUnknownFields(schemas, 'v1/Schema', value)).toEqual([
      'items.bogus',
      'items.items[0].typo',
      'dependencies[c].extra',
    ]);
    expect(findUnknownFields(schemas, 'v1/Schema', { items: true, additionalProperties: { nope: 1 } })).toEqual(['additionalProperties.nope']);
  });

  it('rejects a type the tree does not have', () => {
    expect(() => findUnknownFields(tree, 'v1/Nope', {})).toThrow(/no type v1\/Nope/);
  });
});
