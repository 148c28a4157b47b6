import { describe, expect, it } from 'vitest';
import { mergeOpenAPI } from '@kapi/apimachinery';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import { fixtureSchemas } from './helpers.js';

type Schema = Record<string, any>;

const WIDGETS = 'packages/api-widgets';
const outputs = generate(loadSchemas(fixtureSchemas));
const openapiOf = (path: string): Record<string, Schema> => {
  const out = outputs.find((o) => o.path === path);
  if (!out) throw new Error(`not generated: ${path}`);
  return JSON.parse(out.content.slice(out.content.indexOf('= ') + 2).replace(/;\s*$/, '')).schemas;
};

/** Every `$ref` below a value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI schemas of a group package', () => {
  const own = openapiOf(`${WIDGETS}/src/generated/openapi.ts`);
  const meta = openapiOf('packages/apimachinery/src/generated/openapi.ts');
  // What the group definition serves: its own schemas merged with those of the packages it refers to.
  const schemas = mergeOpenAPI([{ schemas: own }, { schemas: meta }]).schemas as Record<string, Schema>;

  it('is emitted per package with its own types only, and merged into the group definition', () => {
    expect(Object.keys(own).filter((n) => !n.startsWith('com.example.widgets.'))).toEqual([]);
    expect(Object.keys(meta).every((n) => n.startsWith('io.k8s.apimachinery.'))).toBe(true);
    const group = outputs.find((o) => o.path === `${WIDGETS}/src/generated/group.ts`)!.content;
    expect(group).toContain(`import { openapi } from './openapi.js';`);
    expect(group).toContain('    return (merged.openapi ??= mergeOpenAPI([openapi, metaOpenAPI]));\n');
  });

  it('names types as kube does, nested inline types as the generator does, and is self-contained', () => {
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining([
      'com.example.widgets.v1.Widget',
      'com.example.widgets.v1.WidgetList',
      'com.example.widgets.v1.WidgetSpec',
      'com.example.widgets.v1.WidgetSpecSteps',
      'com.example.widgets.v1.Port',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
    ]));
    expect(Object.keys(schemas)).toEqual([...Object.keys(schemas)].sort());
    for (const ref of refs(schemas)) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    expect(JSON.stringify(schemas)).not.toContain('x-kapi-');
  });

  it('marks kinds and their lists with x-kubernetes-group-version-kind', () => {
    expect(schemas['com.example.widgets.v1.Widget']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'widgets.example.com', kind: 'Widget', version: 'v1' },
    ]);
    const list = schemas['com.example.widgets.v1.WidgetList'];
    expect(list['x-kubernetes-group-version-kind']).toEqual([{ group: 'widgets.example.com', kind: 'WidgetList', version: 'v1' }]);
    expect(list.required).toEqual(['items']);
    expect(list.properties.items.items).toEqual({ $ref: '#/components/schemas/com.example.widgets.v1.Widget' });
    expect(list.properties.metadata.allOf).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }]);
  });

  it('keeps types, formats, enums, defaults, required and x-kubernetes-* keys', () => {
    const spec = schemas['com.example.widgets.v1.WidgetSpec'];
    expect(spec.required).toEqual(['size']);
    expect(spec.properties.size).toEqual({ enum: ['small', 'large'], type: 'string' });
    expect(spec.properties.replicas).toEqual({ format: 'int32', type: 'integer' });
    expect(spec.properties.payload).toEqual({ format: 'byte', type: 'string' });
    expect(spec.properties.ports).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/com.example.widgets.v1.Port' },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'port',
    });
    expect(spec.properties.limits.additionalProperties).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' });
    expect(spec.properties.extra).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(spec.properties.weight).toEqual({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    // metav1.Duration is inlined as a string, as kube-openapi does.
    expect(spec.properties.timeout).toEqual({ type: 'string' });
    expect(schemas['com.example.widgets.v1.Port'].properties.protocol).toEqual({ default: 'TCP', enum: ['TCP', 'UDP'], type: 'string' });
    expect(schemas['com.example.widgets.v1.WidgetSpecSelector']['x-kubernetes-map-type']).toBe('atomic');
  });

  it('writes apimachinery special types as kube v3 does', () => {
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      format: 'int-or-string',
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString'].type).toBeUndefined();
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Patch']).toEqual({
      description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
      type: 'object',
    });
  });

  it('wraps a $ref in allOf when the field adds a description (kube v3), and leaves it bare otherwise', () => {
    const set = loadSchemas(fixtureSchemas);
    set.files.get('widgets/v1/Widget')!.schema.properties!.metadata.description = 'Standard object metadata.';
    const out = generate(set).find((o) => o.path === `${WIDGETS}/src/generated/openapi.ts`)!.content;
    const described = JSON.parse(out.slice(out.indexOf('= ') + 2).replace(/;\s*$/, '')).schemas;
    expect(described['com.example.widgets.v1.Widget'].properties.metadata).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
      description: 'Standard object metadata.',
    });
    expect(schemas['com.example.widgets.v1.Widget'].properties.metadata).toEqual({
      $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    });
  });
});
