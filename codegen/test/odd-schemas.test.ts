// Schema constructs the meta-schema allows that need care: property names that are not identifiers, recursion,
// nested type names that clash, integer enums, comment terminators in descriptions, arrays of arrays, unions
// (`oneOf`) and Go's non-pointer omitempty scalars (`x-kapi-omit-zero`).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { createMessageCodec, findUnknownFields, lazyValidators, mergeDescriptors, type AjvSchemas, type FieldTree, type ProtoDescriptor } from '@kapi/apimachinery';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import type { SchemaNode, SchemaSet } from '../src/model/schema.js';
import { fixtureSchemas } from './helpers.js';

const ODD = 'packages/api-odd/src/generated';

function withOddGroup(files: Record<string, SchemaNode>): SchemaSet {
  const set = loadSchemas(fixtureSchemas);
  set.groups.set('odd', { folder: 'odd', group: 'odd.example.com', packageName: '@kapi/api-odd', directory: 'packages/api-odd', strategicMergePatch: false });
  for (const [name, schema] of Object.entries(files)) {
    set.files.set(`odd/v1/${name}`, { id: `odd/v1/${name}`, folder: 'odd', version: 'v1', name, schema });
  }
  return set;
}

const odd: SchemaNode = {
  description: 'Odd has a */ comment end.',
  type: 'object',
  'x-kapi-resource': {
    group: 'odd.example.com', version: 'v1', kind: 'Odd', plural: 'odds', singular: 'odd', scope: 'Cluster', verbs: ['get'],
  },
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 1 },
    'foo-bar': { type: 'object', description: 'ends */', 'x-kapi-field-number': 2, properties: { a: { type: 'string', 'x-kapi-field-number': 1 } } },
    $level: { type: 'integer', enum: [1, 2], 'x-kapi-field-number': 3 },
    tree: { $ref: './Node.json', 'x-kapi-field-number': 4 },
  },
};
const node: SchemaNode = {
  type: 'object',
  properties: {
    children: { type: 'array', items: { $ref: './Node.json' }, 'x-kapi-field-number': 1 },
    name: { type: 'string', 'x-kapi-field-number': 2 },
  },
};

const content = (set: SchemaSet, path: string): string => {
  const out = generate(set).find((o) => o.path === path);
  if (!out) throw new Error(`not generated: ${path}`);
  return out.content;
};
const descriptorIn = (source: string): ProtoDescriptor => JSON.parse(source.slice(source.indexOf('= ') + 2).replace(/;\s*$/, ''));
/** The value a generated `export const x: T = <json>;` module holds. */
const constIn = <T>(source: string): T => JSON.parse(source.slice(source.indexOf('= ') + 2).replace(/;\s*$/, '')) as T;

describe('generator on schemas with unusual names and shapes', () => {
  const set = withOddGroup({ Odd: odd, Node: node });

  it('names nested types from non-identifier properties as identifiers, and escapes comment ends', () => {
    const ts = content(set, `${ODD}/odd/v1/Odd.ts`);
    expect(ts).toContain('/** Odd has a *\\/ comment end. */');
    expect(ts).toContain('  "foo-bar"?: OddFooBar;\n');
    expect(ts).toContain('  $level?: 1 | 2;\n');
    expect(ts).toContain('export interface OddFooBar {');
    expect(ts).toContain('  tree?: Node;\n');
  });

  it('emits a descriptor protobufjs accepts, and the codec round-trips such fields and recursion', () => {
    const descriptor = mergeDescriptors([descriptorIn(content(set, `${ODD}/descriptor.ts`)), descriptorIn(content(set, 'packages/apimachinery/src/generated/descriptor.ts'))]);
    const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
    root.resolveAll();
    const type = root.lookupType('com.example.odd.v1.Odd');
    expect(type.fields.level).toMatchObject({ id: 3, type: 'int64', options: { kapi_json_name: '$level' } });
    // A property that is no identifier gets Go's Protobuf field name and keeps its JSON name in an option.
    expect(type.fields.fooBar.resolvedType?.fullName).toBe('.com.example.odd.v1.OddFooBar');
    expect(type.fields.fooBar.options).toMatchObject({ kapi_json_name: 'foo-bar' });

    const codec = createMessageCodec(descriptor);
    const obj = { 'foo-bar': { a: 'x' }, $level: 2, tree: { children: [{ children: [{ name: 'leaf' }], name: 'c' }], name: 'r' } };
    const bytes = codec.encode('com.example.odd.v1.Odd', obj);
    expect(Buffer.from(bytes).toString('hex')).toBe(
      '1203' + '0a0178' + '1802' + '2210' + '0a0b' + '0a06' + '1204' + Buffer.from('leaf').toString('hex') + '1201' + '63' + '1201' + '72',
    );
    expect(codec.decode('com.example.odd.v1.Odd', bytes)).toStrictEqual(obj);
  });

  it('rejects a nested type that would share a name with a schema file', () => {
    const oddWithSpec = { ...odd, properties: { ...odd.properties, spec: { type: 'object', 'x-kapi-field-number': 5, properties: {} } } } as SchemaNode;
    const clash = withOddGroup({ Odd: oddWithSpec, Node: node, OddSpec: { type: 'object', properties: {} } });
    expect(() => generate(clash)).toThrow(
      'schemas/odd/v1/OddSpec.json and OddSpec (nested in schemas/odd/v1/Odd.json) are both Protobuf message com.example.odd.v1.OddSpec; rename one or use a $ref',
    );
  });

  it('rejects a $-property whose Protobuf name is taken by another property', () => {
    const taken = { ...odd, properties: { ...odd.properties, level: { type: 'string', 'x-kapi-field-number': 6 } } } as SchemaNode;
    expect(() => generate(withOddGroup({ Odd: taken, Node: node }))).toThrow(
      'odd.example.com/v1/Odd.$level: no free Protobuf field name for this property',
    );
  });

  it('rejects arrays of arrays, which Protobuf cannot carry without a named wrapper', () => {
    const grid = { ...odd, properties: { ...odd.properties, grid: { type: 'array', items: { type: 'array', items: { type: 'string' } }, 'x-kapi-field-number': 7 } } } as SchemaNode;
    expect(() => generate(withOddGroup({ Odd: grid, Node: node }))).toThrow('odd.example.com/v1/Odd.grid: nested collections need a named wrapper type');
  });
});

describe('loading schema files', () => {
  it('rejects a file name that cannot be a type name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-schemas-'));
    try {
      cpSync(fixtureSchemas, dir, { recursive: true });
      mkdirSync(join(dir, 'widgets/v1'), { recursive: true });
      writeFileSync(join(dir, 'widgets/v1/Foo-Bar.json'), '{"type": "object", "properties": {}}');
      expect(() => loadSchemas(dir)).toThrow(
        `${join(dir, 'widgets/v1/Foo-Bar.json')}: a schema file name must be an identifier ([A-Za-z_][A-Za-z0-9_]*)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('generator on groups that refer to each other', () => {
  const group = (name: string, other: string): SchemaSet => {
    const set = loadSchemas(fixtureSchemas);
    for (const [folder, ref] of [[name, other], [other, name]]) {
      set.groups.set(folder, { folder, group: `${folder}.example.com`, packageName: `@kapi/api-${folder}`, directory: `packages/api-${folder}`, strategicMergePatch: false });
      set.files.set(`${folder}/v1/Thing`, {
        id: `${folder}/v1/Thing`, folder, version: 'v1', name: 'Thing',
        schema: { type: 'object', properties: { other: { $ref: `../../${ref}/v1/Thing.json`, 'x-kapi-field-number': 1 } } },
      });
    }
    return set;
  };

  it('refuses a cycle of packages, naming it', () => {
    expect(() => generate(group('ping', 'pong'))).toThrow(
      'schemas refer to each other in a cycle of packages: @kapi/api-ping -> @kapi/api-pong -> @kapi/api-ping; move the shared types into one group',
    );
  });
});

describe('generator on unions and omit-zero scalars', () => {
  // Like apiextensions' JSONSchemaProps: a recursive schema whose fields are unions of a boolean, a schema, arrays.
  const schema: SchemaNode = {
    type: 'object',
    properties: {
      title: { type: 'string', 'x-kapi-omit-zero': true, 'x-kapi-field-number': 1 },
      more: { $ref: './SchemaOrBool.json', 'x-kapi-field-number': 2 },
      items: { $ref: './SchemaOrList.json', 'x-kapi-field-number': 3 },
      deps: { type: 'object', additionalProperties: { $ref: './SchemaOrNames.json' }, 'x-kapi-field-number': 4 },
    },
  };
  const orBool: SchemaNode = {
    description: 'SchemaOrBool is a schema or a flag.',
    oneOf: [{ type: 'boolean', 'x-kapi-field-number': 1 }, { $ref: './Schema.json', 'x-kapi-field-number': 2 }],
  };
  const orList: SchemaNode = {
    oneOf: [{ $ref: './Schema.json', 'x-kapi-field-number': 1 }, { type: 'array', items: { $ref: './Schema.json' }, 'x-kapi-field-number': 2 }],
  };
  const orNames: SchemaNode = {
    oneOf: [{ $ref: './Schema.json', 'x-kapi-field-number': 1 }, { type: 'array', items: { type: 'string' }, 'x-kapi-field-number': 2 }],
  };
  const set = withOddGroup({ Odd: odd, Node: node, Schema: schema, SchemaOrBool: orBool, SchemaOrList: orList, SchemaOrNames: orNames });
  const SCHEMA = 'com.example.odd.v1.Schema';
  const descriptor = () =>
    mergeDescriptors([descriptorIn(content(set, `${ODD}/descriptor.ts`)), descriptorIn(content(set, 'packages/apimachinery/src/generated/descriptor.ts'))]);

  it('types a union as the union of its alternatives', () => {
    expect(content(set, `${ODD}/odd/v1/SchemaOrBool.ts`)).toContain('export type SchemaOrBool = boolean | Schema;\n');
    expect(content(set, `${ODD}/odd/v1/SchemaOrList.ts`)).toContain('export type SchemaOrList = Schema | Schema[];\n');
    expect(content(set, `${ODD}/odd/v1/SchemaOrNames.ts`)).toContain('export type SchemaOrNames = Schema | string[];\n');
    expect(content(set, `${ODD}/odd/v1/Schema.ts`)).toContain('  deps?: Record<string, SchemaOrNames>;\n');
  });

  it('describes a union as a kapi_one_of message with fields named after JSON types, and omit-zero scalars', () => {
    const root = protobuf.Root.fromJSON(descriptor() as protobuf.INamespace);
    const union = root.lookupType('com.example.odd.v1.SchemaOrBool');
    expect(union.options).toEqual({ kapi_one_of: true });
    expect(union.fields.boolean).toMatchObject({ id: 1, type: 'bool' });
    expect(union.fields.object).toMatchObject({ id: 2, type: `.${SCHEMA}` });
    expect(root.lookupType('com.example.odd.v1.SchemaOrList').fields.array).toMatchObject({ id: 2, repeated: true });
    expect(root.lookupType(SCHEMA).fields.title.options).toEqual({ kapi_omit_zero: true });
  });

  it('encodes each JSON form of a union as its field, and decodes it back', () => {
    const codec = createMessageCodec(descriptor());
    const hex = (obj: Record<string, unknown>) => Buffer.from(codec.encode(SCHEMA, obj)).toString('hex');
    // title (a non-pointer string) is always written: `0a 00` when unset.
    expect(hex({ more: true })).toBe('0a00' + '12020801');
    expect(hex({ more: { title: 'x' } })).toBe('0a00' + '1207' + '0801' + '1203' + '0a0178');
    expect(hex({ items: [{}] })).toBe('0a00' + '1a04' + '12020a00');
    expect(hex({ deps: { a: ['b'] } })).toBe('0a00' + '2208' + '0a0161' + '1203' + '120162');
    for (const obj of [{ more: false }, { more: {} }, { items: { title: 't' } }, { items: [{ more: true }] }, { deps: { a: {}, b: ['c'] } }, {}]) {
      expect(codec.decode(SCHEMA, codec.encode(SCHEMA, obj)), JSON.stringify(obj)).toStrictEqual(obj);
    }
  });

  it('validates a union by JSON type, and walks its object and array forms for unknown fields', () => {
    const schemas = constIn<AjvSchemas>(content(set, `${ODD}/ajv-schemas.ts`));
    const { check } = lazyValidators([schemas], { check: 'kapi://schemas/odd/v1/Schema.json' });
    expect(check({ more: true, items: [{ more: { title: 'x' } }], deps: { a: ['b'], c: {} } })).toEqual([]);
    expect(check({ more: 'yes', items: true, deps: { a: [1] } })).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'more', badValue: 'yes', message: 'must be of type boolean or object' },
      { type: 'FieldValueTypeInvalid', field: 'items', badValue: true, message: 'must be of type object or array' },
      { type: 'FieldValueTypeInvalid', field: 'deps.a[0]', badValue: 1, message: 'must be of type string' },
    ]);
    const tree = constIn<FieldTree>(content(set, `${ODD}/field-tree.ts`));
    expect(tree.types['odd.example.com/v1/Schema'].props).toEqual({
      title: 0,
      more: 'odd.example.com/v1/Schema',
      items: { u: ['odd.example.com/v1/Schema', { a: 'odd.example.com/v1/Schema' }] },
      deps: { m: { u: ['odd.example.com/v1/Schema', { a: 0 }] } },
    });
    expect(findUnknownFields(tree, 'odd.example.com/v1/Schema', { more: { x: 1 }, items: [{ y: 2 }], deps: { a: { z: 3 } } })).toEqual([
      'more.x',
      'items[0].y',
      'deps[a].z',
    ]);
  });

  it('writes a union into OpenAPI without a type, as kube-openapi does', () => {
    const openapi = constIn<{ schemas: Record<string, unknown> }>(content(set, `${ODD}/openapi.ts`));
    expect(openapi.schemas['com.example.odd.v1.SchemaOrBool']).toEqual({ description: 'SchemaOrBool is a schema or a flag.' });
  });

  it('rejects unions that JSON types cannot tell apart', () => {
    const twoObjects: SchemaNode = { oneOf: [{ $ref: './Schema.json', 'x-kapi-field-number': 1 }, { $ref: './Node.json', 'x-kapi-field-number': 2 }] };
    expect(() => generate(withOddGroup({ Odd: odd, Node: node, Schema: schema, SchemaOrBool: orBool, SchemaOrList: twoObjects, SchemaOrNames: orNames }))).toThrow(
      'schemas/odd/v1/SchemaOrList.json: two oneOf alternatives are objects',
    );
    const scalar: SchemaNode = { oneOf: [{ type: 'string', 'x-kapi-field-number': 1 } as SchemaNode] };
    expect(() => generate(withOddGroup({ Odd: odd, Node: node, Schema: schema, SchemaOrBool: orBool, SchemaOrList: orList, SchemaOrNames: scalar }))).toThrow(
      'schemas/odd/v1/SchemaOrNames.json: oneOf[0] is not a boolean, an object type or an inline array',
    );
  });
});
