// Kinds served in several versions: the storage version mark, the fields each version must mark when they have no
// counterpart, and the converters generated into src/generated/conversions.ts.
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import type { ResourceHeader, SchemaNode, SchemaSet } from '../src/model/schema.js';
import { fixtureSchemas } from './helpers.js';

const DIR = 'packages/api-multi/src/generated';

function withMultiGroup(files: Record<string, SchemaNode>): SchemaSet {
  const set = loadSchemas(fixtureSchemas);
  set.groups.set('multi', { folder: 'multi', group: 'multi.example.com', packageName: '@kapi/api-multi', directory: 'packages/api-multi', strategicMergePatch: false });
  for (const [path, schema] of Object.entries(files)) {
    const [version, name] = path.split('/');
    set.files.set(`multi/${path}`, { id: `multi/${path}`, folder: 'multi', version, name, schema });
  }
  return set;
}

const header = (version: string, extra: Partial<ResourceHeader> = {}): ResourceHeader => ({
  group: 'multi.example.com', version, kind: 'Gadget', plural: 'gadgets', singular: 'gadget', scope: 'Namespaced', verbs: ['get', 'create'], ...extra,
});

const gadget = (version: string, spec: Record<string, SchemaNode>, extra: Partial<ResourceHeader> = {}): SchemaNode => ({
  type: 'object',
  'x-kapi-resource': header(version, extra),
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 1 },
    spec: { type: 'object', 'x-kapi-field-number': 2, properties: spec },
  },
});

const str = (n: number, extra: Partial<SchemaNode> = {}): SchemaNode => ({ type: 'string', 'x-kapi-field-number': n, ...extra });
const part = (props: Record<string, SchemaNode>): SchemaNode => ({ type: 'object', properties: props });

/** v1 and v2 (storage) agreeing on everything but what `v1Spec` and `v2Spec` add. */
const twoVersions = (v1Spec: Record<string, SchemaNode>, v2Spec: Record<string, SchemaNode>, files: Record<string, SchemaNode> = {}) =>
  withMultiGroup({
    'v1/Gadget': gadget('v1', { name: str(1), ...v1Spec }),
    'v2/Gadget': gadget('v2', { name: str(1), ...v2Spec }, { storageVersion: true }),
    ...files,
  });

const content = (set: SchemaSet, path: string): string => {
  const out = generate(set).find((o) => o.path === path);
  if (!out) throw new Error(`not generated: ${path}`);
  return out.content;
};

const failure = (set: SchemaSet): string => {
  try {
    generate(set);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('generate did not fail');
};

describe('the storage version', () => {
  it('must be marked on exactly one version of a kind served in several', () => {
    const none = withMultiGroup({ 'v1/Gadget': gadget('v1', {}), 'v2/Gadget': gadget('v2', {}) });
    expect(failure(none)).toBe(
      'multi.example.com Gadget is served in v1, v2 (schemas/multi/v1/Gadget.json, schemas/multi/v2/Gadget.json): ' +
        'exactly one version must have "storageVersion": true in x-kapi-resource; none is marked',
    );
    const two = withMultiGroup({ 'v1/Gadget': gadget('v1', {}, { storageVersion: true }), 'v2/Gadget': gadget('v2', {}, { storageVersion: true }) });
    expect(failure(two)).toContain('Gadget is served in v1, v2');
    expect(failure(two)).toContain('v1 and v2 are marked');
  });

  it('needs no mark on a kind served in one version, which gets no converters', () => {
    const set = withMultiGroup({ 'v1/Gadget': gadget('v1', {}) });
    const out = generate(set);
    expect(out.some((o) => o.path === `${DIR}/conversions.ts`)).toBe(false);
    expect(content(set, `${DIR}/group.ts`)).not.toContain('conversions');
  });
});

describe('fields without counterpart', () => {
  it('fail generation with one message naming every unmarked field, its file and path', () => {
    const set = twoVersions(
      { old: str(2), list: { type: 'array', items: { $ref: './Part.json' }, 'x-kapi-field-number': 3 }, count: { type: 'integer', 'x-kapi-field-number': 4 } },
      { list: { type: 'array', items: { $ref: './Part.json' }, 'x-kapi-field-number': 3 }, count: str(4), byName: { type: 'object', additionalProperties: { $ref: './Part.json' }, 'x-kapi-field-number': 5 } },
      { 'v1/Part': part({ a: str(1), gone: str(2) }), 'v2/Part': part({ a: str(1), added: str(2) }) },
    );
    const storage = 'multi.example.com/v2 Gadget (the storage version)';
    const mark = `mark it "x-kapi-conversion": "manual" (converted by the group's hook) or "preserve"`;
    expect(failure(set).split('\n')).toEqual([
      `schemas/multi/v1/Gadget.json: spec.old has no counterpart in ${storage}; ${mark}`,
      `schemas/multi/v1/Part.json: spec.list[].gone has no counterpart in ${storage}; ${mark}`,
      `schemas/multi/v2/Part.json: spec.list[].added has no counterpart in multi.example.com/v1 Gadget; ${mark}`,
      `schemas/multi/v1/Gadget.json: spec.count has no counterpart in ${storage}; ${mark}`,
      `schemas/multi/v2/Gadget.json: spec.count has no counterpart in multi.example.com/v1 Gadget; ${mark}`,
      `schemas/multi/v2/Gadget.json: spec.byName has no counterpart in multi.example.com/v1 Gadget; ${mark}`,
    ]);
  });

  it('are preserved or left to hooks once marked, matched ones convert automatically', () => {
    const set = twoVersions(
      { old: str(2, { 'x-kapi-conversion': 'preserve' }), size: { type: 'integer', 'x-kapi-field-number': 3, 'x-kapi-conversion': 'manual' } },
      { replicas: { type: 'integer', 'x-kapi-field-number': 3, 'x-kapi-conversion': 'manual' }, tags: { type: 'array', items: { type: 'string' }, 'x-kapi-field-number': 4, 'x-kapi-conversion': 'preserve' } },
    );
    const source = content(set, `${DIR}/conversions.ts`);
    expect(source).toContain('export function createConversions(hooks: ConversionHooks): Record<string, KindConversion>');
    expect(source).toContain('toV2FromV1(from: v1.Gadget, to: v2.Gadget, ctx: ConversionContext): void;');
    expect(source).toContain('toV1FromV2(from: v2.Gadget, to: v1.Gadget, ctx: ConversionContext): void;');
    expect(source).toContain(' * Manual fields of v1: spec.size');
    expect(source).toContain(' * Manual fields of v2: spec.replicas');
    expect(source).toContain(`toStorage: { plan: {"props":{"apiVersion":1,"kind":1,"metadata":1,"spec":{"props":{"name":1},"preserve":["old"],"manual":["size"]}}}, hook:`);
    expect(source).toContain(`fromStorage: { plan: {"props":{"apiVersion":1,"kind":1,"metadata":1,"spec":{"props":{"name":1},"preserve":["tags"],"manual":["replicas"]}}}, hook:`);
    expect(content(set, `${DIR}/index.ts`)).toContain(`export { createConversions, type ConversionHooks } from './conversions.js';`);
    // With hooks, the group's plugin installs the converters: the definition has none.
    expect(content(set, `${DIR}/group.ts`)).not.toContain('conversions');
  });

  it('compare $refs to different files field by field and copy $refs to the same file whole', () => {
    const set = twoVersions(
      { same: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 2 }, parts: { type: 'object', additionalProperties: { $ref: './Part.json' }, 'x-kapi-field-number': 3 } },
      { same: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 2 }, parts: { type: 'object', additionalProperties: { $ref: './Part.json' }, 'x-kapi-field-number': 3 } },
      { 'v1/Part': part({ a: str(1), b: str(2, { 'x-kapi-conversion': 'preserve' }) }), 'v2/Part': part({ a: str(1) }) },
    );
    const source = content(set, `${DIR}/conversions.ts`);
    expect(source).toContain('export const conversions: Record<string, KindConversion> = {');
    expect(source).toContain(`toStorage: { plan: {"props":{"apiVersion":1,"kind":1,"metadata":1,"spec":{"props":{"name":1,"same":1,"parts":{"values":{"props":{"a":1},"preserve":["b"]}}}}}} },`);
    expect(source).toContain(`fromStorage: { plan: {"props":{"apiVersion":1,"kind":1,"metadata":1,"spec":{"props":{"name":1,"same":1,"parts":{"values":{"props":{"a":1}}}}}}} },`);
    // No hooks: the generated definition installs them.
    expect(content(set, `${DIR}/group.ts`)).toContain(`import { conversions } from './conversions.js';`);
    expect(content(set, `${DIR}/group.ts`)).toContain('  conversions,\n');
    expect(content(set, `${DIR}/index.ts`)).toContain(`export { conversions } from './conversions.js';`);
  });

  it('identical versions convert as whole copies', () => {
    const source = content(twoVersions({}, {}), `${DIR}/conversions.ts`);
    expect(source).toContain('toStorage: { plan: 1 },');
    expect(source).toContain('fromStorage: { plan: 1 },');
  });
});

describe('generated output', () => {
  it('is deterministic', () => {
    const make = () =>
      generate(twoVersions({ size: { type: 'integer', 'x-kapi-field-number': 3, 'x-kapi-conversion': 'manual' } }, { replicas: { type: 'integer', 'x-kapi-field-number': 3, 'x-kapi-conversion': 'manual' } }));
    const [a, b] = [make(), make()].map((files) => files.map((f) => [f.path, f.content]));
    expect(b).toEqual(a);
    expect(a.find(([path]) => path === `${DIR}/conversions.ts`)![1].startsWith('// Code generated by @kapi/codegen. DO NOT EDIT.\n')).toBe(true);
  });

  it('exports each version as a namespace and a name several versions define from the preferred one', () => {
    const types = content(twoVersions({}, {}), `${DIR}/types.ts`);
    expect(types).toContain(`export type * as v1 from './multi/v1/index.js';`);
    expect(types).toContain(`export type * as v2 from './multi/v2/index.js';`);
    expect(types).toContain(`export type { Gadget } from './multi/v2/Gadget.js';`);
    expect(types).toContain(`export type { GadgetSpec } from './multi/v2/Gadget.js';`);
    expect(types).toContain(`export type { GadgetList } from './multi/v2/Gadget.js';`);
  });
});

describe('deprecated versions', () => {
  const resources = (deprecated: ResourceHeader['deprecated']) => {
    const set = withMultiGroup({ 'v1/Gadget': gadget('v1', {}, { deprecated }), 'v2/Gadget': gadget('v2', {}, { storageVersion: true }) });
    const source = content(set, `${DIR}/resources.ts`);
    return JSON.parse(source.slice(source.indexOf('= ') + 2).replace(/;\s*$/, '')) as { version: string; deprecationWarning?: string }[];
  };

  it("carry kube's warning, with the replacement when there is one", () => {
    expect(resources({ replacement: 'multi.example.com/v2 Gadget' }).map((r) => r.deprecationWarning)).toEqual([
      'multi.example.com/v1 Gadget is deprecated; use multi.example.com/v2 Gadget',
      undefined,
    ]);
    expect(resources({})[0].deprecationWarning).toBe('multi.example.com/v1 Gadget is deprecated');
  });

  it("name the releases as kube's built-in deprecations do", () => {
    const [v1] = resources({ in: '1.25', removedIn: '1.29', replacement: 'multi.example.com/v2 Gadget' }) as { deprecationWarning?: string; removedRelease?: string }[];
    expect(v1.deprecationWarning).toBe('multi.example.com/v1 Gadget is deprecated in v1.25+, unavailable in v1.29+; use multi.example.com/v2 Gadget');
    expect(v1.removedRelease).toBe('1.29');
    expect(resources({ in: '1.25' })[0].deprecationWarning).toBe('multi.example.com/v1 Gadget is deprecated in v1.25+');
  });

  it('or their own text', () => {
    expect(resources({ warning: 'gadgets v1 go away in 2027' })[0].deprecationWarning).toBe('gadgets v1 go away in 2027');
  });
});

describe('a kind the group converts whole ("conversion": "manual" on the storage version)', () => {
  it('needs no field marks and gets no generated converter, where without it codegen names the fields', () => {
    const v1 = { 'v1/Gadget': gadget('v1', { old: str(2) }) };
    expect(failure(withMultiGroup({ ...v1, 'v2/Gadget': gadget('v2', { new: str(2) }, { storageVersion: true }) }))).toContain('spec.old has no counterpart');
    const manual = withMultiGroup({ ...v1, 'v2/Gadget': gadget('v2', { new: str(2) }, { storageVersion: true, conversion: 'manual' }) });
    expect(generate(manual).map((o) => o.path)).not.toContain(`${DIR}/conversions.ts`);
    expect(content(manual, `${DIR}/group.ts`)).not.toContain('conversions');
  });
});
