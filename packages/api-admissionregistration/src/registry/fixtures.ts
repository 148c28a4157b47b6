// Valid objects of each kind, for tests to break one field at a time (not exported by the package).
import type { KubeObject } from '@kapi/apimachinery';

const API = 'admissionregistration.k8s.io/v1';

export const rule = () => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' });

export const webhook = (name = 'check.example.com'): Record<string, unknown> => ({
  name,
  clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/validate', port: 443 } },
  rules: [rule()],
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  sideEffects: 'None',
  timeoutSeconds: 10,
  admissionReviewVersions: ['v1'],
});

export const webhookConfiguration = (kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', hooks = [webhook()]): KubeObject => ({
  apiVersion: API,
  kind,
  metadata: { name: 'config' },
  webhooks: hooks,
});

export const matchResources = () => ({
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  resourceRules: [{ ...rule(), operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], resources: ['deployments'] }],
});

export const policy = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: API,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'policy.example.com' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: matchResources(),
    validations: [{ expression: 'object.spec.replicas <= 5' }],
    ...spec,
  },
});

export const binding = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: API,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'binding' },
  spec: { policyName: 'policy.example.com', validationActions: ['Deny'], ...spec },
});
