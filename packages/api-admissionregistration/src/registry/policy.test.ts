import { formatFieldError, type KubeObject } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { matchResources, policy } from './fixtures.js';
import type { CheckExpression, ExpressionContext, ExpressionKind } from './options.js';
import { policyCreateOptions, policyUpdateOptions, validatePolicy, validatePolicyStatus } from './policy.js';

const messages = (p: KubeObject, check?: CheckExpression) => validatePolicy(p, policyCreateOptions(check)).map(formatFieldError);

describe('ValidatingAdmissionPolicy validation (ValidateValidatingAdmissionPolicy)', () => {
  it('accepts a valid policy, with validations or audit annotations alone', () => {
    expect(messages(policy())).toEqual([]);
    expect(messages(policy({ validations: undefined, auditAnnotations: [{ key: 'k', valueExpression: "'v'" }] }))).toEqual([]);
  });

  it('requires validations or auditAnnotations', () => {
    expect(messages(policy({ validations: [] }))).toEqual([
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
  });

  it('failurePolicy required (defaulted) and Fail or Ignore', () => {
    expect(messages(policy({ failurePolicy: undefined }))).toEqual(['spec.failurePolicy: Required value']);
    expect(messages(policy({ failurePolicy: 'Retry' }))).toEqual(['spec.failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']);
  });

  it('matchConstraints required, with resourceRules; its selectors, policy and rules checked', () => {
    expect(messages(policy({ matchConstraints: undefined }))).toEqual(['spec.matchConstraints: Required value']);
    expect(messages(policy({ matchConstraints: { ...matchResources(), resourceRules: [] } }))).toEqual(['spec.matchConstraints.resourceRules: Required value']);
    expect(messages(policy({ matchConstraints: { resourceRules: matchResources().resourceRules } }))).toEqual([
      'spec.matchConstraints.matchPolicy: Required value',
      'spec.matchConstraints.namespaceSelector: Required value',
      'spec.matchConstraints.objectSelector: Required value',
    ]);
    expect(messages(policy({ matchConstraints: { ...matchResources(), matchPolicy: 'Loose' } }))).toEqual([
      'spec.matchConstraints.matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
    ]);
    const rules = { ...matchResources(), excludeResourceRules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], resourceNames: ['a', 'a', 'b/c', '..'] }] };
    expect(messages(policy({ matchConstraints: rules }))).toEqual([
      'spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Duplicate value: "a"',
      'spec.matchConstraints.excludeResourceRules[0].resourceNames[2]: Invalid value: "b/c": may not contain \'/\'',
      'spec.matchConstraints.excludeResourceRules[0].resourceNames[3]: Invalid value: "..": may not be \'..\'',
    ]);
  });

  it('paramKind: apiVersion and kind', () => {
    expect(messages(policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }))).toEqual([]);
    expect(messages(policy({ paramKind: { apiVersion: 'example.com/v1', kind: 'Param' } }))).toEqual([]);
    expect(messages(policy({ paramKind: {} }))).toEqual(['spec.paramKind.apiVersion: Required value', 'spec.paramKind.kind: Required value']);
    expect(messages(policy({ paramKind: { apiVersion: 'a/b/c', kind: 'K' } }))).toEqual(['spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']);
    expect(messages(policy({ paramKind: { apiVersion: 'g/', kind: 'K' } }))).toEqual(['spec.paramKind.apiVersion: Invalid value: "g/": version must be specified']);
    expect(messages(policy({ paramKind: { apiVersion: 'v1', kind: 'Bad_Kind' } }))[0]).toMatch(
      /^spec\.paramKind\.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label/,
    );
  });

  it('validations: expression required, message without line breaks, reason enum, messageExpression non-empty', () => {
    const v = (validation: Record<string, unknown>) => messages(policy({ validations: [validation] }));
    expect(v({ expression: ' ' })).toEqual(['spec.validations[0].expression: Required value: expression is not specified']);
    expect(v({ expression: 'true', message: 'a\nb' })).toEqual(['spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks']);
    expect(v({ expression: 'true', message: ' \n ' })).toEqual(['spec.validations[0].message: Invalid value: " \\n ": message must be non-empty if specified']);
    expect(v({ expression: 'true', message: 'fine\n' })).toEqual([]);
    expect(v({ expression: 'true', messageExpression: '  ' })).toEqual(['spec.validations[0].messageExpression: Invalid value: "  ": must be non-empty if specified']);
    expect(v({ expression: 'true', reason: 'Teapot' })).toEqual([
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
    ]);
    for (const reason of ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge']) expect(v({ expression: 'true', reason })).toEqual([]);
  });

  it('variables: name a CEL identifier, each once; expression required', () => {
    const vars = (variables: unknown[]) => messages(policy({ variables }));
    expect(vars([{ name: 'x', expression: '1' }, { name: '_y2', expression: 'variables.x' }])).toEqual([]);
    expect(vars([{}])).toEqual(['spec.variables[0].name: Required value: name is not specified', 'spec.variables[0].expression: Required value: expression is not specified']);
    expect(vars([{ name: '1x', expression: '1' }])).toEqual(['spec.variables[0].name: Invalid value: "1x": name is not a valid CEL identifier']);
    expect(vars([{ name: 'namespace', expression: '1' }])).toEqual(['spec.variables[0].name: Invalid value: "namespace": name is not a valid CEL identifier']);
    expect(vars([{ name: 'x', expression: '1' }, { name: 'x', expression: '2' }])).toEqual(['spec.variables[1].name: Duplicate value: "x"']);
  });

  it('audit annotations: key qualified with the policy name, unique, at most 20; valueExpression required and at most 5 KiB', () => {
    const audit = (auditAnnotations: unknown[], name = 'policy.example.com') => {
      const p = policy({ auditAnnotations });
      (p.metadata as Record<string, unknown>).name = name;
      return messages(p);
    };
    expect(audit([{ key: 'bad key', valueExpression: "'v'" }])[0]).toMatch(/^spec\.auditAnnotations\[0\]\.key: Invalid value: "policy\.example\.com\/bad key": name part must consist of/);
    expect(audit([{ key: 'k', valueExpression: "'v'" }], '')).toEqual(['spec.auditAnnotations[0].key: Invalid value: "k": requires metadata.name be non-empty']);
    expect(audit([{ key: 'k', valueExpression: '' }])).toEqual(['spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified']);
    expect(audit([{ key: 'k', valueExpression: 'x'.repeat(5121) }])).toEqual(['spec.auditAnnotations[0].valueExpression: Required value: must not exceed 5120 bytes in length']);
    expect(audit([{ key: 'k', valueExpression: "'a'" }, { key: 'k', valueExpression: "'b'" }])).toEqual(['spec.auditAnnotations[1].key: Duplicate value: "k"']);
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }));
    expect(audit(many)).toHaveLength(1);
    expect(audit(many)[0]).toMatch(/^spec\.auditAnnotations: Invalid value: .*: must not have more than 20 auditAnnotations$/);
  });

  it('match conditions as the webhooks’ (params allowed with a paramKind)', () => {
    expect(messages(policy({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'true' }] }))).toEqual([
      'spec.matchConditions[1].name: Duplicate value: "a"',
    ]);
  });

  it('hands every expression field to the CEL check with its kind and environment', () => {
    const calls: [string, ExpressionKind, ExpressionContext][] = [];
    const check: CheckExpression = (e, k, c) => {
      calls.push([e, k, c]);
      return e.includes('bad') ? 'compilation failed: ERROR: <input>:1:1: syntax error' : undefined;
    };
    const p = policy({
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConditions: [{ name: 'm', expression: ' mc ' }],
      variables: [{ name: 'a', expression: 'va' }, { name: 'b', expression: 'bad var' }],
      validations: [{ expression: 'val', messageExpression: ' bad msg' }],
      auditAnnotations: [{ key: 'k', valueExpression: ' bad audit ' }],
    });
    expect(messages(p, check)).toEqual([
      'spec.variables[1].expression: Invalid value: "bad var": compilation failed: ERROR: <input>:1:1: syntax error',
      'spec.validations[0].messageExpression: Invalid value: " bad msg": compilation failed: ERROR: <input>:1:1: syntax error',
      'spec.auditAnnotations[0].valueExpression: Invalid value: " bad audit ": compilation failed: ERROR: <input>:1:1: syntax error',
    ]);
    const base = { hasParams: true, stored: false };
    expect(calls).toEqual([
      ['mc', 'policyMatchCondition', { ...base, field: 'spec.matchConditions[0].expression', hasAuthorizer: true, variables: [] }],
      ['va', 'variable', { ...base, field: 'spec.variables[0].expression', hasAuthorizer: true, variables: [] }],
      ['bad var', 'variable', { ...base, field: 'spec.variables[1].expression', hasAuthorizer: true, variables: ['a'] }],
      ['val', 'validation', { ...base, field: 'spec.validations[0].expression', hasAuthorizer: true, variables: ['a', 'b'] }],
      [' bad msg', 'messageExpression', { ...base, field: 'spec.validations[0].messageExpression', hasAuthorizer: false, variables: ['a', 'b'] }],
      ['bad audit', 'auditAnnotation', { ...base, field: 'spec.auditAnnotations[0].valueExpression', hasAuthorizer: true, variables: ['a', 'b'] }],
    ]);
  });

  it('without a check, no expression is compiled', () => {
    expect(messages(policy({ validations: [{ expression: 'this is not CEL (' }] }))).toEqual([]);
  });

  it('hostile input: wrong types never throw', () => {
    const junk = { apiVersion: 'x', kind: 'ValidatingAdmissionPolicy', metadata: { name: 5 }, spec: { validations: [null, 1, 'x'], matchConstraints: 'x', paramKind: 3, variables: {} } } as unknown as KubeObject;
    expect(() => messages(junk)).not.toThrow();
    expect(messages({ apiVersion: 'x', kind: 'ValidatingAdmissionPolicy', metadata: {} })).toContain('spec.failurePolicy: Required value');
  });
});

describe('ValidatingAdmissionPolicy update and status', () => {
  it('marks expressions of the old policy as stored, and skips unchanged match conditions', () => {
    const old = policy({ matchConditions: [{ name: '', expression: 'x' }] });
    const stored: boolean[] = [];
    const check: CheckExpression = (_e, _k, c) => {
      stored.push(c.stored);
      return undefined;
    };
    const next = policy({ matchConditions: [{ name: '', expression: 'x' }], validations: [{ expression: 'object.spec.replicas <= 5' }, { expression: 'new' }] });
    expect(validatePolicy(next, policyUpdateOptions(next, old, check)).map(formatFieldError)).toEqual([]);
    expect(stored).toEqual([true, false]);
  });

  it('a changed paramKind revalidates the match conditions', () => {
    const old = policy({ matchConditions: [{ name: '', expression: 'x' }] });
    const next = policy({ matchConditions: [{ name: '', expression: 'x' }], paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } });
    expect(validatePolicy(next, policyUpdateOptions(next, old)).map(formatFieldError)).toEqual(['spec.matchConditions[0].name: Required value']);
  });

  it('status: expression warnings need warning and fieldRef; conditions as metav1 conditions', () => {
    const status = (s: unknown) => validatePolicyStatus({ ...policy(), status: s } as KubeObject).map(formatFieldError);
    expect(status({})).toEqual([]);
    expect(status({ typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }, {}] } })).toEqual([
      'status.typeChecking.expressionWarnings[1].warning: Required value',
      'status.typeChecking.expressionWarnings[1].fieldRef: Required value',
    ]);
    const ok = { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'Fine', message: '' };
    expect(status({ conditions: [ok] })).toEqual([]);
    expect(status({ conditions: [ok, { ...ok, status: 'Maybe', reason: '1bad', observedGeneration: -1 }] })).toEqual([
      'status.conditions[1]: Duplicate value: "Ready"',
      'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero',
      "status.conditions[1].reason: Invalid value: \"1bad\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
    ]);
    expect(status({ conditions: [{}] })).toEqual([
      'status.conditions[0].type: Required value: is required',
      'status.conditions[0].status: Required value',
      'status.conditions[0].lastTransitionTime: Required value',
      'status.conditions[0].reason: Required value',
    ]);
    expect(status({ conditions: [{ ...ok, reason: 'R'.repeat(1025), message: 'm'.repeat(32 * 1024 + 1) }] })).toEqual([
      'status.conditions[0].reason: Too long: may not be more than 1024 bytes',
      'status.conditions[0].message: Too long: may not be more than 32768 bytes',
    ]);
  });
});
