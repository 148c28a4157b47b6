// Rules kube rejects at CRD create/update, with kube's field paths and texts.
import { describe, expect, it } from 'vitest';
import { compileErrors, object, resource } from '../test/helpers.js';

const spec = (rules: unknown[]) =>
  resource(
    object(
      {
        replicas: { type: 'integer' },
        name: { type: 'string' },
        list: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      rules,
    ),
  );
const at = (i: number, field = 'rule') => `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[${i}].${field}`;
const errorsOf = (rules: unknown[]) => compileErrors(spec(rules), { schemaPath: 'spec.versions[0].schema.openAPIV3Schema' });

describe('compile errors', () => {
  it('reports syntax errors with the position', () => {
    expect(errorsOf([{ rule: 'self.replicas >' }])).toEqual([
      `${at(0)}: Invalid value: {"rule":"self.replicas >"}: compilation failed: ERROR: <input>:1:15: Syntax error: found > but expecting end of input\n | self.replicas >\n | ..............^`,
    ]);
  });

  it('reports fields the schema does not declare', () => {
    expect(errorsOf([{ rule: 'self.nope > 1' }])).toEqual([
      `${at(0)}: Invalid value: {"rule":"self.nope > 1"}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 1\n | ....^`,
    ]);
  });

  it('reports undeclared variables and functions', () => {
    const errs = errorsOf([{ rule: 'x > 1' }, { rule: 'frobnicate(self.name)' }]);
    expect(errs[0]).toContain("compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')");
    expect(errs[1]).toContain("compilation failed: ERROR: <input>:1:1: undeclared reference to 'frobnicate' (in container '')");
  });

  it('reports calls no overload accepts, from the schema types', () => {
    expect(errorsOf([{ rule: 'self.replicas > "a"' }, { rule: 'self.list.all(x, x > 1)' }])).toEqual([
      `${at(0)}: Invalid value: {"rule":"self.replicas > \\"a\\""}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, string)'\n | self.replicas > "a"\n | ..............^`,
      `${at(1)}: Invalid value: {"rule":"self.list.all(x, x > 1)"}: compilation failed: ERROR: <input>:1:19: found no matching overload for '_>_' applied to '(string, int)'\n | self.list.all(x, x > 1)\n | ..................^`,
    ]);
  });

  it('requires a bool rule and a string messageExpression', () => {
    expect(errorsOf([{ rule: 'self.replicas' }, { rule: 'self.replicas > 1', messageExpression: 'self.replicas' }])).toEqual([
      `${at(0)}: Invalid value: {"rule":"self.replicas"}: cel expression must evaluate to a bool`,
      `${at(1, 'messageExpression')}: Invalid value: {"rule":"self.replicas > 1","messageExpression":"self.replicas"}: messageExpression must evaluate to a string`,
    ]);
  });

  it("checks the rule's other fields first, as kube's schema validation", () => {
    expect(
      errorsOf([
        { rule: ' ' },
        { rule: 'self.replicas > 1', message: ' ' },
        { rule: 'self.replicas\n > 1' },
        { rule: 'self.replicas > 1', reason: 'Bogus' },
        { rule: 'self.replicas > 1', fieldPath: '.nope' },
        { rule: 'self.replicas > 1', messageExpression: ' ' },
      ]),
    ).toEqual([
      `${at(0)}: Required value: rule is not specified`,
      `${at(1, 'message')}: Invalid value: " ": message must be non-empty if specified`,
      `${at(2, 'message')}: Required value: message must be specified if rule contains line breaks`,
      `${at(3, 'reason')}: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${at(4, 'fieldPath')}: Invalid value: ".nope": fieldPath must be a valid path`,
      `${at(5, 'messageExpression')}: Required value: messageExpression must be non-empty if specified`,
    ]);
  });

  it('forbids optionalOldSelf on a rule without oldSelf', () => {
    expect(errorsOf([{ rule: 'self.replicas > 1', optionalOldSelf: true }])).toEqual([
      `${at(0, 'optionalOldSelf')}: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ]);
  });

  it('forbids oldSelf under lists whose items do not correlate', () => {
    const schema = resource(
      object({
        atomic: { type: 'array', maxItems: 8, items: object({ a: { type: 'string', maxLength: 8 } }, [{ rule: 'self.a == oldSelf.a' }]) },
        keyed: {
          type: 'array',
          maxItems: 8,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
          items: object({ a: { type: 'string', maxLength: 8 } }, [{ rule: 'self.a == oldSelf.a' }], { required: ['a'] }),
        },
      }),
    );
    expect(compileErrors(schema)).toEqual([
      'openAPIV3Schema.properties[spec].properties[atomic].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema.properties[spec].properties[atomic]',
    ]);
  });

  it("applies cel-go's parser limits instead of overflowing the stack", () => {
    const deep = errorsOf([{ rule: `${Array(5000).fill('1').join(' + ')} > 0` }, { rule: `${'('.repeat(3000)}true${')'.repeat(3000)}` }]);
    expect(deep[0]).toContain('compilation failed: ERROR: <input>:1:1: expression recursion limit exceeded: 250');
    expect(deep[1]).toContain('compilation failed: ERROR: <input>:1:1: expression recursion limit exceeded: 250');
    expect(errorsOf([{ rule: `'${'x'.repeat(100_000)}' == ''` }])[0]).toContain('expression code point size exceeds limit: size: 100008, limit 100000');
  });

  it('says which kube syntax it does not support', () => {
    const errs = errorsOf([{ rule: 'self.?name.orValue("") == ""' }, { rule: 'self.list.all(i, v, v != "")' }]);
    expect(errs[0]).toContain("Syntax error: found . but expecting end of input (optional selection `.?` and `[?` are not supported by Kapi's CEL)");
    expect(errs[1]).toContain("two-variable comprehensions ('all') are not supported by Kapi's CEL");
  });

  it('accepts kube library calls, escaped property names and resource-root fields', () => {
    const schema = object(
      {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        spec: object({ 'x-y': { type: 'string', maxLength: 63 }, namespace: { type: 'string', maxLength: 63 }, ip: { type: 'string', maxLength: 64 } }),
      },
      [
        { rule: "self.metadata.name.startsWith('a') && self.kind == 'K' && self.apiVersion != ''" },
        { rule: "self.spec.x__dash__y == self.spec.__namespace__" },
        { rule: "isIP(self.spec.ip) && ip(self.spec.ip).family() == 4 && cidr('10.0.0.0/8').containsIP(self.spec.ip)" },
        { rule: "quantity('1Gi').isGreaterThan(quantity('1Mi')) && url('https://x').getHost() == 'x'" },
        { rule: "[1, 2].isSorted() && [1, 2].sum() == 3 && 'abc'.findAll('[a-z]').size() == 3" },
        { rule: "!format.dns1123Label().validate(self.spec.x__dash__y).hasValue() && sets.contains([1, 2], [1])" },
      ],
    );
    expect(compileErrors(schema)).toEqual([]);
  });
});
