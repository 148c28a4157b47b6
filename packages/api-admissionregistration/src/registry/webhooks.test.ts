import { formatFieldError, type KubeObject } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { webhook, webhookConfiguration } from './fixtures.js';
import { createOptions, updateOptions, validateWebhookConfiguration } from './webhooks.js';

const VWC = 'ValidatingWebhookConfiguration';
const MWC = 'MutatingWebhookConfiguration';
const messages = (config: KubeObject, mutating = false) => validateWebhookConfiguration(config, mutating, createOptions()).map(formatFieldError);
const withHook = (changes: Record<string, unknown>, kind: typeof VWC | typeof MWC = VWC) => webhookConfiguration(kind, [{ ...webhook(), ...changes }]);
const without = (key: string) => {
  const hook = webhook();
  delete hook[key];
  return webhookConfiguration(VWC, [hook]);
};

describe('webhook configuration validation (ValidateValidatingWebhookConfiguration)', () => {
  it('accepts a valid configuration of either kind, and one without webhooks', () => {
    expect(messages(webhookConfiguration(VWC))).toEqual([]);
    expect(messages(webhookConfiguration(MWC, [{ ...webhook(), reinvocationPolicy: 'IfNeeded' }]), true)).toEqual([]);
    expect(messages(webhookConfiguration(VWC, []))).toEqual([]);
    expect(messages({ apiVersion: 'x', kind: VWC, metadata: { name: 'a' } })).toEqual([]);
  });

  it('webhook names: required, an RFC 1123 subdomain, three segments, unique', () => {
    expect(messages(withHook({ name: '' }))).toEqual(['webhooks[0].name: Required value']);
    expect(messages(withHook({ name: 'two.segments' }))).toEqual(['webhooks[0].name: Invalid value: "two.segments": should be a domain with at least three segments separated by dots']);
    expect(messages(withHook({ name: 'Bad_Name.x.y' }))[0]).toMatch(/^webhooks\[0\]\.name: Invalid value: "Bad_Name\.x\.y": a lowercase RFC 1123 subdomain must consist of/);
    expect(messages(webhookConfiguration(VWC, [webhook('a.b.c'), webhook('d.e.f'), webhook('a.b.c')]))).toEqual(['webhooks[2].name: Duplicate value: "a.b.c"']);
  });

  it('sideEffects: required in v1, and only None or NoneOnDryRun', () => {
    expect(messages(without('sideEffects'))).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
    expect(messages(withHook({ sideEffects: null }))).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
    expect(messages(withHook({ sideEffects: 'Some' }))).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
    expect(messages(withHook({ sideEffects: 'NoneOnDryRun' }))).toEqual([]);
  });

  it('admissionReviewVersions: required, DNS-1035 labels, no duplicates, one of v1/v1beta1', () => {
    expect(messages(without('admissionReviewVersions'))).toEqual(['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
    expect(messages(withHook({ admissionReviewVersions: ['v2'] }))).toEqual(['webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1']);
    expect(messages(withHook({ admissionReviewVersions: ['v1', 'v1'] }))).toEqual(['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
    expect(messages(withHook({ admissionReviewVersions: ['v1', 'V_2'] }))[0]).toMatch(/^webhooks\[0\]\.admissionReviewVersions\[1\]: Invalid value: "V_2": a DNS-1035 label/);
  });

  it('timeoutSeconds between 1 and 30; enums of failurePolicy, matchPolicy and (mutating only) reinvocationPolicy', () => {
    expect(messages(withHook({ timeoutSeconds: 0 }))).toEqual(['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
    expect(messages(withHook({ timeoutSeconds: 31 }))).toEqual(['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
    expect(messages(withHook({ timeoutSeconds: 30 }))).toEqual([]);
    expect(messages(withHook({ failurePolicy: 'Maybe' }))).toEqual(['webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"']);
    expect(messages(withHook({ matchPolicy: 'Fuzzy' }))).toEqual(['webhooks[0].matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"']);
    expect(messages(withHook({ reinvocationPolicy: 'Always' }, MWC), true)).toEqual(['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
    expect(messages(withHook({ reinvocationPolicy: 'Always' }))).toEqual([]);
  });

  it('rules: operations, groups, versions, resources and scope', () => {
    const rule = (r: Record<string, unknown>) => messages(withHook({ rules: [r] }));
    expect(rule({})).toEqual([
      'webhooks[0].rules[0].operations: Required value',
      'webhooks[0].rules[0].apiGroups: Required value',
      'webhooks[0].rules[0].apiVersions: Required value',
      'webhooks[0].rules[0].resources: Required value',
    ]);
    const base = { operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
    expect(rule(base)).toEqual([]);
    expect(rule({ ...base, operations: ['*', 'CREATE'] })).toEqual(['webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations']);
    expect(rule({ ...base, operations: ['PATCH'] })).toEqual([
      'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    ]);
    expect(rule({ ...base, apiGroups: ['*', 'apps'] })).toEqual(['webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups']);
    expect(rule({ ...base, apiVersions: ['v1', '*'] })).toEqual(['webhooks[0].rules[0].apiVersions: Invalid value: ["v1","*"]: if \'*\' is present, must not specify other API versions']);
    expect(rule({ ...base, apiVersions: ['v1', ''] })).toEqual(['webhooks[0].rules[0].apiVersions[1]: Required value']);
    expect(rule({ ...base, scope: 'Global' })).toEqual(['webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"']);
  });

  it('rule resources: subresources and wildcard forms', () => {
    const resources = (r: unknown[]) => messages(withHook({ rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: r }] }));
    expect(resources(['pods', 'pods/status', '*/scale'])).toEqual([]);
    expect(resources(['*/*'])).toEqual([]);
    expect(resources(['*', '*/status'])).toEqual([]);
    expect(resources(['*/*', 'pods'])).toEqual(['webhooks[0].rules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not specify other resources']);
    expect(resources(['*', 'pods'])).toEqual(['webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources without subresources']);
    // kube remembers only the last plain resource: `*` after `pods` passes
    expect(resources(['pods', '*'])).toEqual([]);
    expect(resources(['pods/*', 'pods/status'])).toEqual(["webhooks[0].rules[0].resources[1]: Invalid value: \"pods/status\": if 'pods/*' is present, must not specify pods/status"]);
    expect(resources(['*/status', 'pods/status'])).toEqual(["webhooks[0].rules[0].resources[1]: Invalid value: \"pods/status\": if '*/status' is present, must not specify pods/status"]);
    expect(resources(['', 'pods'])).toEqual(['webhooks[0].rules[0].resources[0]: Required value']);
  });

  it('clientConfig: exactly one of url and service', () => {
    expect(messages(withHook({ clientConfig: {} }))).toEqual(['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
    expect(messages(withHook({ clientConfig: { url: 'https://a', service: { namespace: 'n', name: 's' } } }))).toEqual([
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(messages(withHook({ clientConfig: { url: 'https://hook.example.com:8443/path' } }))).toEqual([]);
  });

  it('namespaceSelector and objectSelector are label selectors, label values checked on create', () => {
    expect(messages(withHook({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }))).toEqual([
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
    expect(messages(withHook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }))).toEqual([
      "webhooks[0].objectSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
    expect(messages(withHook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] } }))).toEqual([
      'webhooks[0].objectSelector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator',
    ]);
    const bad = messages(withHook({ objectSelector: { matchLabels: { 'bad key!': 'v' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['-bad-'] }] } }));
    expect(bad.map((m) => m.split(': ')[0])).toEqual(['webhooks[0].objectSelector.matchLabels', 'webhooks[0].objectSelector.matchExpressions[0].values[0]']);
  });

  it('matchConditions: names, expressions, uniqueness, at most 64', () => {
    expect(messages(withHook({ matchConditions: [{ name: 'a', expression: 'true' }] }))).toEqual([]);
    expect(messages(withHook({ matchConditions: [{}] }))).toEqual(['webhooks[0].matchConditions[0].expression: Required value', 'webhooks[0].matchConditions[0].name: Required value']);
    expect(messages(withHook({ matchConditions: [{ name: 'a', expression: '   ' }] }))).toEqual(['webhooks[0].matchConditions[0].expression: Required value']);
    expect(messages(withHook({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }] }))).toEqual([
      'webhooks[0].matchConditions[1].name: Duplicate value: "a"',
    ]);
    expect(messages(withHook({ matchConditions: [{ name: 'a b', expression: 'true' }] }))[0]).toMatch(/^webhooks\[0\]\.matchConditions\[0\]\.name: Invalid value: "a b": name part must consist of/);
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(messages(withHook({ matchConditions: many }))).toEqual(['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  });

  it('match condition expressions go to the caller’s CEL check, trimmed, its message as the error', () => {
    const seen: unknown[] = [];
    const check = (expression: string, kind: string, context: unknown) => {
      seen.push({ expression, kind, context });
      return expression === 'bad' ? "compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad'" : undefined;
    };
    const config = withHook({ matchConditions: [{ name: 'a', expression: ' bad ' }, { name: 'b', expression: 'true' }] });
    expect(validateWebhookConfiguration(config, false, createOptions(check)).map(formatFieldError)).toEqual([
      `webhooks[0].matchConditions[0].expression: Invalid value: "bad": compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad'`,
    ]);
    expect(seen[0]).toEqual({
      expression: 'bad',
      kind: 'webhookMatchCondition',
      context: { field: 'webhooks[0].matchConditions[0].expression', hasParams: false, hasAuthorizer: true, stored: false, variables: [] },
    });
  });

  it('a check that throws is an internal error at the field, not a crash', () => {
    const check = () => {
      throw new Error('compiler exploded');
    };
    const config = withHook({ matchConditions: [{ name: 'a', expression: 'x' }] });
    expect(validateWebhookConfiguration(config, false, createOptions(check)).map(formatFieldError)).toEqual(['webhooks[0].matchConditions[0].expression: Internal error: compiler exploded']);
  });

  it('hostile input: wrong types and junk items read as Go zero values, never throw', () => {
    const junk: KubeObject = { apiVersion: 'x', kind: VWC, metadata: {}, webhooks: [null, 5, 'x', { name: 7, rules: 'r', clientConfig: [], matchConditions: {}, admissionReviewVersions: 'v1' }] };
    const out = messages(junk);
    expect(out).toContain('webhooks[0].name: Required value');
    expect(out).toContain('webhooks[3].clientConfig: Required value: exactly one of url or service is required');
    expect(messages({ apiVersion: 'x', kind: VWC, metadata: {}, webhooks: 'nope' })).toEqual([]);
  });

  it('a huge list is validated in one pass (10 000 webhooks, names unique)', () => {
    const hooks = Array.from({ length: 10_000 }, (_, i) => webhook(`w${i}.example.com`));
    hooks.push(webhook('w0.example.com'));
    expect(messages(webhookConfiguration(VWC, hooks))).toEqual(['webhooks[10000].name: Duplicate value: "w0.example.com"']);
  });
});

describe('webhook configuration update (ValidateValidatingWebhookConfigurationUpdate)', () => {
  const update = (config: KubeObject, old: KubeObject, check?: Parameters<typeof updateOptions>[2]) =>
    validateWebhookConfiguration(config, false, updateOptions(config, old, check)).map(formatFieldError);

  it('applies the create rules to a valid old object', () => {
    const old = webhookConfiguration(VWC);
    expect(update(withHook({ sideEffects: 'Some' }), old)).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  });

  it('keeps allowing what the old object already had: side effects, unknown review versions, duplicate names, loose selector values', () => {
    const oldHook = { ...webhook(), sideEffects: 'Some', admissionReviewVersions: ['v9'], objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['-x-'] }] } };
    const old = webhookConfiguration(VWC, [oldHook, { ...webhook() }]);
    expect(update(old, old)).toEqual([]);
    const unknownSideEffect = webhookConfiguration(VWC, [{ ...oldHook, sideEffects: 'Sometimes' }, webhook()]);
    expect(update(unknownSideEffect, old)).toEqual(['webhooks[0].sideEffects: Unsupported value: "Sometimes": supported values: "None", "NoneOnDryRun", "Some", "Unknown"']);
  });

  it('skips match conditions the update leaves unchanged, and marks old expressions as stored', () => {
    const badConditions = [{ name: '', expression: 'old' }];
    const old = withHook({ matchConditions: badConditions });
    expect(update(withHook({ matchConditions: badConditions, timeoutSeconds: 5 }), old)).toEqual([]);
    const contexts: unknown[] = [];
    const check = (_e: string, _k: string, c: { stored: boolean }) => {
      contexts.push(c.stored);
      return undefined;
    };
    update(withHook({ matchConditions: [{ name: 'a', expression: 'old' }, { name: 'b', expression: 'new' }] }), old, check);
    expect(contexts).toEqual([true, false]);
  });
});
