// A CustomResourceDefinition with several faults is refused with all of them at once, as kube 1.33's
// ValidateCustomResourceDefinition reports them: the CEL rules of a schema node are compiled unless that node or one
// below it has a schema error (a fault elsewhere in the schema, such as a root `nullable`, hides nothing); a default
// on a node whose rule does not compile is refused for it, and that hides the schema's compile errors; versions with
// the same schema written with their keys in another order are one schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRDS, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.server.stop());

const SPEC = 'spec.validation.openAPIV3Schema.properties[spec]';
const BAD_RULE = `${SPEC}.properties[b].x-kubernetes-validations[0].rule: Invalid value: {"rule":"self.startsWith("}: compilation failed: ERROR: <input>:1:5: Syntax error: found . but expecting end of input\n | self.startsWith(\n | ....^`;

type Schema = Record<string, unknown>;
const crd = (root: Schema, extra: Schema = {}, versions?: Schema[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'tas.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'tas', singular: 'ta', kind: 'Ta', listKind: 'TaList' },
    versions: versions ?? [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root }, ...extra }],
  },
});
const withSpec = (spec: Schema, root: Schema = {}): Schema => ({ type: 'object', ...root, properties: { spec: { type: 'object', ...spec } } });
const badRuleOnB = (more: Schema = {}): Schema => ({ properties: { b: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.startsWith(' }] }, ...more } });

/** The causes of a refused create, as `field: message` lines (the order kube gives). */
async function refused(body: unknown): Promise<string[]> {
  const res = await h.req('POST', `${CRDS}?dryRun=All`, typeof body === 'string' ? body : JSON.stringify(body));
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
}

describe('a CustomResourceDefinition with several faults', () => {
  it("a schema error beside a rule's node does not hide the rule's compile error", async () => {
    const spec = badRuleOnB();
    (spec.properties as Schema).a = { type: 'array', uniqueItems: true, items: { type: 'string' } };
    expect(await refused(crd(withSpec(spec)))).toEqual([
      `${SPEC}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      BAD_RULE,
    ]);
  });

  it('nor does a nullable root, or a root the status subresource does not allow', async () => {
    expect(await refused(crd(withSpec(badRuleOnB(), { nullable: true })))).toEqual([
      'spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root',
      BAD_RULE,
    ]);
    const causes = await refused(crd(withSpec(badRuleOnB(), { minProperties: 1 }), { subresources: { status: {} } }));
    expect(causes).toHaveLength(2);
    expect(causes[0]).toMatch(/^spec\.validation\.openAPIV3Schema: Invalid value: .*only \[Description Type .*\] fields are allowed at the root of the schema if the status subresource is enabled$/);
    expect(causes[1]).toBe(BAD_RULE);
  });

  it("a schema error at a rule's node, or below it, hides that node's rules only", async () => {
    const spec = { ...badRuleOnB(), 'x-kubernetes-validations': [{ rule: 'true', message: ' ' }] };
    expect(await refused(crd(withSpec(spec)))).toEqual([`${SPEC}.x-kubernetes-validations[0].message: Invalid value: " ": message must be non-empty if specified`, BAD_RULE]);
  });

  it("a default on a node whose rule does not compile is refused for it, and the schema's rules are not compiled", async () => {
    const spec = badRuleOnB({ c: { type: 'integer', 'x-kubernetes-validations': [{ rule: "self > 'a'" }] } });
    ((spec.properties as Schema).b as Schema).default = 'abc';
    expect(await refused(crd(withSpec(spec)))).toEqual([
      `${SPEC}.properties[b].default: Invalid value: "string": rule compile error: compilation failed: ERROR: <input>:1:5: Syntax error: found . but expecting end of input\n | self.startsWith(\n | ....^`,
    ]);
  });

  it('versions whose schemas differ only in key order share them: a structural error hides every rule', async () => {
    const one = '{"type":"object","properties":{"x":{},"spec":{"type":"object","properties":{"b":{"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith("}]}}}}}';
    const two = '{"properties":{"spec":{"properties":{"b":{"x-kubernetes-validations":[{"rule":"self.startsWith("}],"type":"string"}},"type":"object"},"x":{}},"type":"object"}';
    const version = (name: string, storage: boolean, schema: string) => `{"name":"${name}","served":true,"storage":${storage},"schema":{"openAPIV3Schema":${schema}}}`;
    const body = JSON.stringify(crd({}, {}, [])).replace('"versions":[]', `"versions":[${version('v1', true, one)},${version('v2', false, two)}]`);
    expect(await refused(body)).toEqual(['spec.validation.openAPIV3Schema.properties[x].type: Required value: must not be empty for specified object fields']);
  });

  it("reports what kube's own checks say of a missing field, and nothing its schema's required lists would add", async () => {
    const columns = { additionalPrinterColumns: [{ name: 'X', type: 'string' }] };
    expect(await refused(crd(withSpec({}), columns))).toEqual(['spec.additionalPrinterColumns[0].JSONPath: Required value']);
    // served and storage decode as false when left out: a version that is not served is a valid one.
    const body = crd(withSpec({}));
    delete (body.spec.versions[0] as Schema).served;
    const res = await h.req('POST', `${CRDS}?dryRun=All`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec.versions[0]).toMatchObject({ served: false, storage: true });
  });

  it('an `items` or a `dependencies` value of another type is taken apart as kube decodes it, and reported with the rest', async () => {
    const body = crd({ type: 'object', properties: { a: { type: 'array', items: 'abc' } } });
    (body.spec as Schema).scope = 'Bad';
    expect(await refused(body)).toEqual([
      'spec.scope: Unsupported value: "Bad": supported values: "Cluster", "Namespaced"',
      'spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified',
    ]);
    expect(await refused(crd({ type: 'object', properties: { d: { type: 'object', dependencies: { x: 5 } } } }))).toEqual([
      'spec.validation.openAPIV3Schema.properties[d].dependencies: Forbidden: dependencies is not supported',
    ]);
  });

  it("an additionalProperties that is neither a boolean nor a schema is a decoding error, in its decoder's words", async () => {
    const res = await h.req('POST', CRDS, crd({ type: 'object', properties: { a: { type: 'object', additionalProperties: 'x' } } }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: boolean or JSON schema expected');
  });
});
