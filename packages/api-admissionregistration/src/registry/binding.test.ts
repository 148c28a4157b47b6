import { formatFieldError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { validatePolicyBinding } from './binding.js';
import { binding, matchResources } from './fixtures.js';

const messages = (spec: Record<string, unknown>) => validatePolicyBinding(binding(spec)).map(formatFieldError);

describe('ValidatingAdmissionPolicyBinding validation', () => {
  it('accepts a valid binding', () => {
    expect(messages({})).toEqual([]);
    expect(messages({ validationActions: ['Warn', 'Audit'], paramRef: { name: 'p', namespace: 'ns', parameterNotFoundAction: 'Allow' }, matchResources: matchResources() })).toEqual([]);
  });

  it('policyName required and an RFC 1123 subdomain', () => {
    expect(messages({ policyName: '' })).toEqual(['spec.policyName: Required value']);
    expect(messages({ policyName: 'Bad' })[0]).toMatch(/^spec\.policyName: Invalid value: "Bad": a lowercase RFC 1123 subdomain/);
  });

  it('validationActions: required, known, unique, not Deny with Warn', () => {
    expect(messages({ validationActions: [] })).toEqual(['spec.validationActions: Required value: at least one validation action is required']);
    expect(messages({ validationActions: undefined })).toEqual(['spec.validationActions: Required value: at least one validation action is required']);
    expect(messages({ validationActions: ['Block'] })).toEqual(['spec.validationActions[0]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"']);
    expect(messages({ validationActions: ['Audit', 'Audit'] })).toEqual(['spec.validationActions[1]: Duplicate value: "Audit"']);
    expect(messages({ validationActions: ['Deny', 'Warn'] })).toEqual([
      'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });

  it('paramRef: name xor selector, parameterNotFoundAction required and Allow or Deny', () => {
    expect(messages({ paramRef: {} })).toEqual(['spec.paramRef: Required value: one of name or selector must be specified', 'spec.paramRef.parameterNotFoundAction: Required value']);
    expect(messages({ paramRef: { name: 'p', selector: {}, parameterNotFoundAction: 'Deny' } })).toEqual([
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    ]);
    expect(messages({ paramRef: { selector: { matchLabels: { a: 'b' } }, parameterNotFoundAction: 'Deny' } })).toEqual([]);
    expect(messages({ paramRef: { name: 'a/b', parameterNotFoundAction: 'Deny' } })).toEqual(['spec.paramRef.name: Invalid value: "a/b": may not contain \'/\'']);
    expect(messages({ paramRef: { name: 'p', parameterNotFoundAction: 'Ignore' } })).toEqual(['spec.paramRef.parameterNotFoundAction: Unsupported value: "Ignore": supported values: "Deny", "Allow"']);
    expect(messages({ paramRef: { selector: { matchExpressions: [{ key: 'k', operator: 'Nope' }] }, parameterNotFoundAction: 'Deny' } })).toEqual([
      'spec.paramRef.selector.matchExpressions[0].operator: Invalid value: "Nope": not a valid selector operator',
    ]);
  });

  it('matchResources, when given, as a policy’s (resourceRules optional)', () => {
    expect(messages({ matchResources: { ...matchResources(), resourceRules: undefined } })).toEqual([]);
    expect(messages({ matchResources: {} })).toEqual([
      'spec.matchResources.matchPolicy: Required value',
      'spec.matchResources.namespaceSelector: Required value',
      'spec.matchResources.objectSelector: Required value',
    ]);
  });

  it('hostile input never throws; a huge validationActions list is one pass', () => {
    expect(() => validatePolicyBinding({ apiVersion: 'x', kind: 'y', spec: 'nope' } as never)).not.toThrow();
    const out = messages({ validationActions: Array.from({ length: 50_000 }, () => 'Audit') });
    expect(out).toHaveLength(49_999);
  });
});
