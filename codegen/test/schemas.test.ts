import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

/**
 * Checks every file under schemas/ against codegen/meta-schema.json and the rules the meta-schema cannot
 * express (schemas/README.md): references resolve, every field has a unique Protobuf number, and resource
 * headers agree with where the file lives.
 */

type Json = Record<string, any>;
/** Path relative to schemas/ (`core/v1/Pod.json`, `core/group.json`) → parsed content. */
type Tree = Map<string, Json>;


const ROOT = repoRoot;
const SCHEMAS = join(ROOT, 'schemas');
const META_SCHEMA = JSON.parse(readFileSync(join(ROOT, 'codegen', 'meta-schema.json'), 'utf8'));

function loadTree(dir: string): Tree {
  const tree: Tree = new Map();
  for (const folder of readdirSync(dir).sort()) {
    const folderDir = join(dir, folder);
    if (!statSync(folderDir).isDirectory()) continue;
    for (const entry of readdirSync(folderDir).sort()) {
      const path = join(folderDir, entry);
      if (entry === 'group.json') tree.set(`${folder}/group.json`, JSON.parse(readFileSync(path, 'utf8')));
      else if (statSync(path).isDirectory()) {
        for (const file of readdirSync(path).sort()) {
          if (file.endsWith('.json')) tree.set(`${folder}/${entry}/${file}`, JSON.parse(readFileSync(join(path, file), 'utf8')));
        }
      }
    }
  }
  return tree;
}

const isGroupFile = (path: string) => path.endsWith('/group.json');
const schemaFiles = (tree: Tree) => [...tree].filter(([path]) => !isGroupFile(path));

function compileMeta(): { schema: ValidateFunction; group: ValidateFunction } {
  const ajv = new Ajv.default({ allErrors: true, strict: true, allowMatchingProperties: true });
  ajv.addSchema(META_SCHEMA);
  return {
    schema: ajv.getSchema(META_SCHEMA.$id)!,
    group: ajv.getSchema(`${META_SCHEMA.$id}#/definitions/groupFile`)!,
  };
}
const META = compileMeta();

function metaSchemaErrors(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, content] of tree) {
    const validate = isGroupFile(path) ? META.group : META.schema;
    if (!validate(content)) {
      for (const e of validate.errors ?? []) errors.push(`${path}${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
    }
  }
  return errors;
}

/** Every schema node of a file that can carry `$ref`, with a readable location. */
function* nodes(node: Json, where: string): Generator<[Json, string]> {
  yield [node, where];
  for (const [name, child] of Object.entries<Json>(node.properties ?? {})) yield* nodes(child, `${where}.${name}`);
  if (node.items && typeof node.items === 'object') yield* nodes(node.items, `${where}[]`);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') yield* nodes(node.additionalProperties, `${where}{}`);
  for (const [i, alt] of (node.oneOf ?? []).entries()) yield* nodes(alt, `${where}|${i}`);
}

const resolveRef = (from: string, ref: string) => posix.normalize(posix.join(posix.dirname(from), ref));

function refsOf(path: string, schema: Json): [string, string][] {
  const refs: [string, string][] = [];
  for (const [node, where] of nodes(schema, path)) if (typeof node.$ref === 'string') refs.push([where, node.$ref]);
  for (const e of schema['x-kapi-protobuf']?.embedded ?? []) refs.push([`${path} embedded ${e.name}`, e.$ref]);
  return refs;
}

function danglingRefs(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, schema] of schemaFiles(tree)) {
    for (const [where, ref] of refsOf(path, schema)) {
      if (!tree.has(resolveRef(path, ref))) errors.push(`${where}: $ref ${ref} does not resolve`);
    }
  }
  return errors;
}

/** Every object node with `properties` (the file root and inline objects): each is one Protobuf message. */
function* messages(path: string, schema: Json): Generator<{ node: Json; where: string; root: boolean }> {
  for (const [node, where] of nodes(schema, path)) {
    if (node.properties && !node.$ref) yield { node, where, root: node === schema };
  }
}

/** Properties that need no number: apiVersion/kind of a file root, and properties an embedded message carries. */
function exemptProperties(tree: Tree, path: string, schema: Json): Set<string> {
  const exempt = new Set(['apiVersion', 'kind']);
  for (const e of schema['x-kapi-protobuf']?.embedded ?? []) {
    const target = tree.get(resolveRef(path, e.$ref));
    for (const name of Object.keys(target?.properties ?? {})) exempt.add(name);
  }
  return exempt;
}

function missingFieldNumbers(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, schema] of schemaFiles(tree)) {
    const exempt = exemptProperties(tree, path, schema);
    for (const { node, where, root } of messages(path, schema)) {
      for (const [name, prop] of Object.entries<Json>(node.properties)) {
        if (prop['x-kapi-field-number'] === undefined && !(root && exempt.has(name))) {
          errors.push(`${where}.${name} has no x-kapi-field-number`);
        }
      }
    }
  }
  return errors;
}

function duplicateFieldNumbers(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, schema] of schemaFiles(tree)) {
    // A union's alternatives are the fields of its message.
    const seen = new Map<number, string>();
    for (const [i, alt] of (schema.oneOf ?? []).entries()) {
      const number = alt['x-kapi-field-number'];
      const other = seen.get(number);
      if (other) errors.push(`${path}: ${other} and oneOf[${i}] share field number ${number}`);
      else if (number !== undefined) seen.set(number, `oneOf[${i}]`);
    }
    for (const { node, where, root } of messages(path, schema)) {
      const seen = new Map<number, string>();
      const fields: [string, number | undefined][] = Object.entries<Json>(node.properties).map(([n, p]) => [n, p['x-kapi-field-number']]);
      if (root) for (const e of schema['x-kapi-protobuf']?.embedded ?? []) fields.push([`(embedded ${e.name})`, e.number]);
      for (const [name, number] of fields) {
        if (number === undefined) continue;
        const other = seen.get(number);
        if (other) errors.push(`${where}: ${other} and ${name} share field number ${number}`);
        else seen.set(number, name);
      }
    }
  }
  return errors;
}

/** Embedded messages must carry properties that the embedding schema lists too (they are inlined in its JSON). */
function embeddedMismatches(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, schema] of schemaFiles(tree)) {
    for (const e of schema['x-kapi-protobuf']?.embedded ?? []) {
      const target = tree.get(resolveRef(path, e.$ref));
      for (const name of Object.keys(target?.properties ?? {})) {
        if (!schema.properties?.[name]) errors.push(`${path}: embedded ${e.name} carries ${name}, which is not a property`);
        else if (schema.properties[name]['x-kapi-field-number'] !== undefined) {
          errors.push(`${path}.${name} travels inside embedded ${e.name} but has its own field number`);
        }
      }
    }
  }
  return errors;
}

function headerMismatches(tree: Tree): string[] {
  const errors: string[] = [];
  for (const [path, schema] of schemaFiles(tree)) {
    const header = schema['x-kapi-resource'];
    if (!header) continue;
    const [folder, version, file] = path.split('/');
    if (header.kind !== file.replace(/\.json$/, '')) errors.push(`${path}: kind ${header.kind} is not the file name`);
    if (header.version !== version) errors.push(`${path}: version ${header.version} is not the folder ${version}`);
    const group = tree.get(`${folder}/group.json`)?.group;
    if (group !== undefined && header.group !== group) errors.push(`${path}: group ${header.group} is not group.json's ${group}`);
    if (folder === 'core' && header.group !== '') errors.push(`${path}: core kinds have group ""`);
  }
  return errors;
}

function allErrors(tree: Tree): string[] {
  return [
    ...metaSchemaErrors(tree),
    ...danglingRefs(tree),
    ...missingFieldNumbers(tree),
    ...duplicateFieldNumbers(tree),
    ...embeddedMismatches(tree),
    ...headerMismatches(tree),
  ];
}

describe('schemas/', () => {
  const tree = loadTree(SCHEMAS);

  it('holds the imported and hand-written groups', () => {
    for (const path of ['core/v1/Pod.json', 'apps/v1/Deployment.json', 'meta/v1/ObjectMeta.json', 'apidiscovery/v2/APIGroupDiscoveryList.json', 'wardle/v1alpha1/Flunder.json']) {
      expect(tree.has(path), path).toBe(true);
    }
  });

  it('every file satisfies codegen/meta-schema.json', () => {
    expect(metaSchemaErrors(tree)).toEqual([]);
  });

  it('every $ref resolves to a schema file', () => {
    expect(danglingRefs(tree)).toEqual([]);
  });

  it('every property has a Protobuf field number, except apiVersion/kind and embedded ones', () => {
    expect(missingFieldNumbers(tree)).toEqual([]);
  });

  it('no two fields of one message share a number', () => {
    expect(duplicateFieldNumbers(tree)).toEqual([]);
  });

  it('embedded messages match the properties they inline', () => {
    expect(embeddedMismatches(tree)).toEqual([]);
  });

  it("every resource header's kind, version and group match the file's place", () => {
    expect(headerMismatches(tree)).toEqual([]);
  });
});

describe('the checks reject broken schemas', () => {
  const objectMeta = { type: 'object', properties: { name: { type: 'string', 'x-kapi-field-number': 1 } } };
  const header = {
    group: 'example.com', version: 'v1', kind: 'Thing', plural: 'things', singular: 'thing', scope: 'Namespaced',
    verbs: ['get', 'list'],
  };
  const thing = (patch: Json = {}, headerPatch: Json = {}): Json => ({
    type: 'object',
    'x-kapi-resource': { ...header, ...headerPatch },
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 1 },
      spec: { type: 'object', 'x-kapi-field-number': 2, properties: { size: { type: 'integer', 'x-kapi-field-number': 1 } } },
    },
    ...patch,
  });
  const treeWith = (schema: Json, extra: [string, Json][] = []): Tree =>
    new Map<string, Json>([
      ['meta/v1/ObjectMeta.json', objectMeta],
      ['example/group.json', { group: 'example.com' }],
      ['example/v1/Thing.json', schema],
      ...extra,
    ]);

  it('accepts the well-formed example', () => {
    expect(allErrors(treeWith(thing()))).toEqual([]);
  });

  it('rejects keywords outside the README tables', () => {
    expect(metaSchemaErrors(treeWith(thing({ anyOf: [] })))).not.toEqual([]);
    const withValidations = thing();
    withValidations.properties.spec['x-kubernetes-validations'] = [{ rule: 'true' }];
    expect(metaSchemaErrors(treeWith(withValidations))).not.toEqual([]);
  });

  it('rejects field numbers that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, '3', 19500]) {
      const schema = thing();
      schema.properties.spec['x-kapi-field-number'] = bad;
      expect(metaSchemaErrors(treeWith(schema)), String(bad)).not.toEqual([]);
    }
  });

  it('rejects malformed resource headers', () => {
    expect(metaSchemaErrors(treeWith(thing({}, { scope: 'Global' })))).not.toEqual([]);
    expect(metaSchemaErrors(treeWith(thing({}, { verbs: ['get', 'frobnicate'] })))).not.toEqual([]);
    expect(metaSchemaErrors(treeWith(thing({}, { plural: undefined })))).not.toEqual([]);
    expect(metaSchemaErrors(treeWith(thing({}, { printerColumns: [{ name: 'Size', type: 'float', jsonPath: '.spec.size' }] })))).not.toEqual([]);
  });

  it('rejects a $ref with sibling schema keywords and a malformed group.json', () => {
    const schema = thing();
    schema.properties.metadata.type = 'object';
    expect(metaSchemaErrors(treeWith(schema))).not.toEqual([]);
    expect(metaSchemaErrors(treeWith(thing(), [['other/group.json', { group: 'x', packages: '@kapi/x' }]]))).not.toEqual([]);
  });

  it('accepts a union at a schema root only, of alternatives with field numbers', () => {
    const union = (oneOf: Json[], patch: Json = {}): Json => ({ description: 'A thing or a flag.', oneOf, ...patch });
    const good = union([{ type: 'boolean', 'x-kapi-field-number': 1 }, { $ref: './Thing.json', 'x-kapi-field-number': 2 }]);
    expect(allErrors(treeWith(thing(), [['example/v1/ThingOrBool.json', good]]))).toEqual([]);
    for (const bad of [
      union([]),
      union([{ type: 'boolean' }]),
      union([{ type: 'string', 'x-kapi-field-number': 1 }]),
      union([{ $ref: './Thing.json', description: 'x', type: 'object', 'x-kapi-field-number': 1 }]),
      union(good.oneOf, { type: 'object' }),
      union(good.oneOf, { properties: {} }),
    ]) {
      expect(metaSchemaErrors(treeWith(thing(), [['example/v1/ThingOrBool.json', bad]])), JSON.stringify(bad)).not.toEqual([]);
    }
    const spec = thing();
    spec.properties.spec.oneOf = good.oneOf;
    expect(metaSchemaErrors(treeWith(spec))).not.toEqual([]);
    const dangling = union([{ type: 'boolean', 'x-kapi-field-number': 1 }, { $ref: './Nope.json', 'x-kapi-field-number': 1 }]);
    const withDangling = treeWith(thing(), [['example/v1/ThingOrBool.json', dangling]]);
    expect(danglingRefs(withDangling)).toEqual(['example/v1/ThingOrBool.json|1: $ref ./Nope.json does not resolve']);
    expect(duplicateFieldNumbers(withDangling)).toEqual(['example/v1/ThingOrBool.json: oneOf[0] and oneOf[1] share field number 1']);
  });

  it('finds dangling references', () => {
    const schema = thing();
    schema.properties.metadata.$ref = '../../meta/v1/ObjectMetta.json';
    expect(danglingRefs(treeWith(schema))).toEqual([
      'example/v1/Thing.json.metadata: $ref ../../meta/v1/ObjectMetta.json does not resolve',
    ]);
  });

  it('finds missing field numbers, also in inline objects', () => {
    const schema = thing();
    delete schema.properties.spec.properties.size['x-kapi-field-number'];
    expect(missingFieldNumbers(treeWith(schema))).toEqual(['example/v1/Thing.json.spec.size has no x-kapi-field-number']);
  });

  it('finds duplicate field numbers, including embedded ones', () => {
    const schema = thing();
    schema.properties.spec['x-kapi-field-number'] = 1;
    expect(duplicateFieldNumbers(treeWith(schema))).toEqual(['example/v1/Thing.json: metadata and spec share field number 1']);
    const embedding = thing({ 'x-kapi-protobuf': { embedded: [{ name: 'common', number: 2, $ref: './Common.json' }] } });
    const common: Json = { type: 'object', properties: { size: { type: 'integer', 'x-kapi-field-number': 1 } } };
    expect(duplicateFieldNumbers(treeWith(embedding, [['example/v1/Common.json', common]]))).toEqual([
      'example/v1/Thing.json: spec and (embedded common) share field number 2',
    ]);
  });

  it('finds embedded properties that are missing or numbered', () => {
    const embedding = thing({ 'x-kapi-protobuf': { embedded: [{ name: 'common', number: 3, $ref: './Common.json' }] } });
    const common: Json = { type: 'object', properties: { color: { type: 'string', 'x-kapi-field-number': 1 } } };
    expect(embeddedMismatches(treeWith(embedding, [['example/v1/Common.json', common]]))).toEqual([
      'example/v1/Thing.json: embedded common carries color, which is not a property',
    ]);
  });

  it('finds headers that disagree with the file', () => {
    expect(headerMismatches(treeWith(thing({}, { kind: 'Other', version: 'v2' })))).toEqual([
      'example/v1/Thing.json: kind Other is not the file name',
      'example/v1/Thing.json: version v2 is not the folder v1',
    ]);
  });
});
