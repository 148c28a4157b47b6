// Schema constructs the meta-schema allows that need care: property names that are not identifiers, recursion,
// nested type names that clash, integer enums, comment terminators in descriptions, arrays of arrays.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { createMessageCodec, mergeDescriptors, type ProtoDescriptor } from '@kapi/apimachinery';
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
