import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { mergeDescriptors, type ProtoDescriptor } from '@kapi/apimachinery';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import { writeOutputs } from '../src/writer.js';
import { GENERATED_HEADER } from '../src/output.js';
import { fixtureSchemas, scratchRepo } from './helpers.js';

const set = () => loadSchemas(fixtureSchemas);
const WIDGETS = 'packages/api-widgets';

describe('generator on a schema that uses every construct', () => {
  const outputs = generate(set());
  const file = (path: string) => {
    const out = outputs.find((o) => o.path === path);
    if (!out) throw new Error(`not generated: ${path}`);
    return out.content;
  };

  it('is deterministic: two runs give identical bytes', () => {
    const bytes = (files: typeof outputs) => files.map(({ path, content, scaffold }) => ({ path, content, scaffold }));
    expect(bytes(generate(set()))).toEqual(bytes(outputs));
  });

  it('matches the expected output, file by file', async () => {
    for (const out of outputs) {
      await expect(out.content).toMatchFileSnapshot(join('expected', out.path));
    }
  });

  it('marks every sealed file do-not-edit and only writes them under src/generated', () => {
    for (const out of outputs) {
      if (out.scaffold) {
        expect(out.path).not.toContain('/src/generated/');
      } else {
        expect(out.path).toContain('/src/generated/');
        expect(out.content.startsWith(GENERATED_HEADER + '\n')).toBe(true);
      }
    }
  });

  it('emits TypeScript with exact JSON names, optional vs required, literals, enums and nested types', () => {
    const widget = file(`${WIDGETS}/src/generated/widgets/v1/Widget.ts`);
    expect(widget).toContain('apiVersion: "widgets.example.com/v1";');
    expect(widget).toContain('kind: "Widget";');
    expect(widget).toContain('spec: WidgetSpec;');
    expect(widget).toContain('status?: WidgetStatus;');
    expect(widget).toContain('size: "small" | "large";');
    expect(widget).toContain('weight?: number | string;');
    expect(widget).toContain('limits?: Record<string, Quantity>;');
    expect(widget).toContain('steps?: WidgetSpecSteps[];');
    expect(widget).toMatch(/import type \{[^}]*ObjectMeta[^}]*\} from "@kapi\/apimachinery";/);
    expect(widget).toContain('export interface WidgetList {');
    const port = file(`${WIDGETS}/src/generated/widgets/v1/Port.ts`);
    expect(port).toContain('port: number;');
    expect(port).toContain('name?: string;');
  });

  it('emits Protobuf descriptors with the schema field numbers, inlined structs and special types', () => {
    // The package's own messages; the meta messages it refers to come from the meta package's descriptor.
    const { descriptor: own } = descriptorOf(file(`${WIDGETS}/src/generated/descriptor.ts`));
    const { descriptor: meta } = descriptorOf(file('packages/apimachinery/src/generated/descriptor.ts'));
    expect(JSON.stringify(own)).not.toContain('"ObjectMeta"');
    const descriptor = mergeDescriptors([own as ProtoDescriptor, meta as ProtoDescriptor]);
    const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
    root.resolveAll();
    const spec = root.lookupType('com.example.widgets.v1.WidgetSpec');
    expect(spec.fields.size).toMatchObject({ id: 1, type: 'string' });
    expect(spec.fields.replicas).toMatchObject({ id: 2, type: 'int32' });
    expect(spec.fields.ratio).toMatchObject({ id: 3, type: 'double' });
    expect(spec.fields.payload).toMatchObject({ id: 5, type: 'bytes' });
    expect(spec.fields.ports).toMatchObject({ id: 6, repeated: true });
    expect(spec.fields.limits.map).toBe(true);
    expect(spec.fields.limits.resolvedType?.fullName).toBe('.k8s.io.apimachinery.pkg.api.resource.Quantity');
    expect(spec.fields.timeout.resolvedType?.fullName).toBe('.k8s.io.apimachinery.pkg.apis.meta.v1.Duration');
    expect(spec.fields.extra.resolvedType?.fullName).toBe('.k8s.io.apimachinery.pkg.runtime.RawExtension');
    expect(spec.fields.weight.resolvedType?.fullName).toBe('.k8s.io.apimachinery.pkg.util.intstr.IntOrString');
    const port = root.lookupType('com.example.widgets.v1.Port');
    expect(port.fields.reference).toMatchObject({ id: 1, options: { kapi_inline: true } });
    expect(port.fields.name).toBeUndefined();
    const list = root.lookupType('com.example.widgets.v1.WidgetList');
    expect(list.fields.metadata.id).toBe(1);
    expect(list.fields.items).toMatchObject({ id: 2, repeated: true });
    const time = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.Time');
    expect(Object.keys(time.fields)).toEqual(['seconds', 'nanos']);
  });

  it('emits the resource registry with header, printer columns and patch metadata', () => {
    const resources = JSON.parse(file(`${WIDGETS}/src/generated/resources.ts`).split('= ')[1].replace(/;\s*$/, ''));
    expect(resources).toHaveLength(1);
    const [widget] = resources;
    expect(widget).toMatchObject({
      group: 'widgets.example.com', version: 'v1', kind: 'Widget', listKind: 'WidgetList', plural: 'widgets',
      scope: 'Namespaced', shortNames: ['wd'], categories: ['all'],
      protobuf: { message: 'com.example.widgets.v1.Widget', listMessage: 'com.example.widgets.v1.WidgetList' },
    });
    expect(widget.subresources.scale.specReplicasPath).toBe('.spec.replicas');
    expect(widget.printerColumns.map((c: { name: string }) => c.name)).toEqual(['Replicas', 'Age']);
    expect(widget.patchMeta['spec.ports']).toEqual({
      patchStrategy: 'merge', patchMergeKey: 'port', listType: 'map', listMapKeys: ['port', 'protocol'],
    });
    expect(widget.patchMeta['spec.selector']).toEqual({ mapType: 'atomic' });
    expect(widget.patchMeta['metadata.finalizers']).toEqual({ patchStrategy: 'merge', listType: 'set' });
  });

  it('emits a field tree that knows every field, maps, lists and free-form values', () => {
    const tree = JSON.parse(file(`${WIDGETS}/src/generated/field-tree.ts`).split('= ')[1].replace(/;\s*$/, ''));
    expect(tree.types['widgets.example.com/v1/Widget'].props.spec).toBe('widgets.example.com/v1/Widget.Spec');
    const spec = tree.types['widgets.example.com/v1/Widget.Spec'].props;
    expect(spec.ports).toEqual({ a: 'widgets.example.com/v1/Port' });
    expect(spec.limits).toEqual({ m: 0 });
    expect(spec.extra).toBe('*');
    expect(tree.types['widgets.example.com/v1/Port'].props).toHaveProperty('name', 0);
  });

  it('scaffolds a new package once and never overwrites hand-written files', () => {
    const scratch = scratchRepo(fixtureSchemas);
    try {
      writeOutputs(scratch.root, generate(loadSchemas(join(scratch.root, 'schemas'))));
      const index = join(scratch.root, WIDGETS, 'src/index.ts');
      const pkg = JSON.parse(readFileSync(join(scratch.root, WIDGETS, 'package.json'), 'utf8'));
      expect(pkg.name).toBe('@kapi/api-widgets');
      expect(pkg.dependencies['@kapi/apimachinery']).toBe('workspace:^');
      const edited = `${readFileSync(index, 'utf8')}export const handWritten = true;\n`;
      writeFileSync(index, edited);
      const again = writeOutputs(scratch.root, generate(loadSchemas(join(scratch.root, 'schemas'))));
      expect(again).toEqual({ changed: [], removed: [] });
      expect(readFileSync(index, 'utf8')).toBe(edited);
    } finally {
      scratch.dispose();
    }
  });

  it('removes generated files whose schema is gone, and reports staleness in check mode', () => {
    const scratch = scratchRepo(fixtureSchemas);
    try {
      writeOutputs(scratch.root, generate(loadSchemas(join(scratch.root, 'schemas'))));
      rmSync(join(scratch.root, 'schemas/widgets/v1/Port.json'));
      writeFileSync(
        join(scratch.root, 'schemas/widgets/v1/Widget.json'),
        readFileSync(join(fixtureSchemas, 'widgets/v1/Widget.json'), 'utf8').replace('"items": { "$ref": "./Port.json" }', '"items": { "type": "string" }'),
      );
      const outputs = generate(loadSchemas(join(scratch.root, 'schemas')));
      const check = writeOutputs(scratch.root, outputs, true);
      expect(check.removed).toEqual([`${WIDGETS}/src/generated/widgets/v1/Port.ts`]);
      expect(check.changed).toContain(`${WIDGETS}/src/generated/widgets/v1/Widget.ts`);
      expect(existsSync(join(scratch.root, WIDGETS, 'src/generated/widgets/v1/Port.ts'))).toBe(true);
      writeOutputs(scratch.root, outputs);
      expect(existsSync(join(scratch.root, WIDGETS, 'src/generated/widgets/v1/Port.ts'))).toBe(false);
    } finally {
      scratch.dispose();
    }
  });

  it('rejects a dangling $ref with the file and the reference named', () => {
    const broken = set();
    const widget = broken.files.get('widgets/v1/Widget')!;
    widget.schema.properties!.spec.properties!.ports.items = { $ref: './Missing.json' };
    expect(() => generate(broken)).toThrow(/schemas\/widgets\/v1\/Widget\.json: \$ref \.\/Missing\.json does not resolve/);
  });
});

function descriptorOf(source: string): { descriptor: unknown } {
  return { descriptor: JSON.parse(source.slice(source.indexOf('= ') + 2).replace(/;\s*$/, '')) };
}
