import { applyDefaults, mergeFieldTrees, metaFieldTree } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { group } from '../generated/index.js';
import { ADMISSIONREGISTRATION_DEFAULTERS } from './defaults.js';

const tree = mergeFieldTrees([metaFieldTree, group.fieldTree]);
const defaulted = <T>(kind: string, obj: T): T => {
  applyDefaults(tree, `admissionregistration.k8s.io/v1/${kind}`, obj, ADMISSIONREGISTRATION_DEFAULTERS);
  return obj;
};

describe('admissionregistration defaults (SetDefaults_*)', () => {
  it('a validating webhook: Fail, Equivalent, empty selectors, 10s; rules every scope; service port 443', () => {
    const config = defaulted('ValidatingWebhookConfiguration', {
      webhooks: [{ name: 'a.b.c', clientConfig: { service: { namespace: 'ns', name: 'svc' } }, rules: [{ operations: ['*'] }] }],
    });
    expect(config.webhooks[0]).toEqual({
      name: 'a.b.c',
      clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
      rules: [{ operations: ['*'], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
    });
  });

  it('a mutating webhook also gets reinvocationPolicy Never; sideEffects and admissionReviewVersions stay unset (v1)', () => {
    const config = defaulted('MutatingWebhookConfiguration', { webhooks: [{ name: 'a.b.c', clientConfig: { url: 'https://x' } }] });
    expect(config.webhooks[0]).toEqual({
      name: 'a.b.c',
      clientConfig: { url: 'https://x' },
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
    });
  });

  it('keeps what the client set, and treats null as unset', () => {
    const config = defaulted('MutatingWebhookConfiguration', {
      webhooks: [
        { failurePolicy: 'Ignore', matchPolicy: 'Exact', namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: null, timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', rules: [{ scope: 'Cluster' }] },
      ],
    });
    expect(config.webhooks[0]).toMatchObject({ failurePolicy: 'Ignore', matchPolicy: 'Exact', namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: {}, timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', rules: [{ scope: 'Cluster' }] });
  });

  it('a policy: failurePolicy Fail; matchConstraints Equivalent with empty selectors, rules every scope', () => {
    const policy = defaulted('ValidatingAdmissionPolicy', { spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'] }], excludeResourceRules: [{}] } } });
    expect(policy.spec).toEqual({
      failurePolicy: 'Fail',
      matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ operations: ['CREATE'], scope: '*' }], excludeResourceRules: [{ scope: '*' }] },
    });
  });

  it('a policy without matchConstraints gets none (validation requires it); a binding’s matchResources is defaulted, its paramRef is not', () => {
    expect(defaulted('ValidatingAdmissionPolicy', { spec: {} }).spec).toEqual({ failurePolicy: 'Fail' });
    const binding = defaulted('ValidatingAdmissionPolicyBinding', { spec: { matchResources: {}, paramRef: { name: 'p' } } });
    expect(binding.spec).toEqual({ matchResources: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} }, paramRef: { name: 'p' } });
  });

  it('survives hostile shapes (lists of non-objects, wrong types)', () => {
    expect(() => defaulted('ValidatingWebhookConfiguration', { webhooks: [1, 'x', null, [], { rules: 'nope' }] })).not.toThrow();
    expect(() => defaulted('ValidatingAdmissionPolicy', { spec: 'x' })).not.toThrow();
  });
});
