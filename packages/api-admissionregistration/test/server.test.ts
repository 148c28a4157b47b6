import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { admissionregistrationPlugin } from '../src/index.js';

const BASE = '/apis/admissionregistration.k8s.io/v1';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const hook = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { service: { namespace: 'ns', name: 'svc' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});

describe('admissionregistration through the server', () => {
  let server: ApiServer;
  const req = async (method: string, path: string, body?: unknown, accept = 'application/json') => {
    const res = await server.fetch(
      new Request(`http://kapi.test${path}`, {
        method,
        headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json', accept },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    const plugin = admissionregistrationPlugin({ checkExpression: (e) => (e.includes('(') && !e.includes(')') ? "compilation failed: ERROR: <input>:1:2: Syntax error: missing ')'" : undefined) });
    server = createApiServer({ storage: createMemoryBackend(), plugins: [plugin] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('creates a webhook configuration with kube’s defaults and generation 1', async () => {
    const res = await req('POST', `${BASE}/validatingwebhookconfigurations`, { metadata: { name: 'vwc' }, webhooks: [hook('a.example.com')] });
    expect(res.status).toBe(201);
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      clientConfig: { service: { port: 443 } },
      rules: [{ scope: '*' }],
    });
    expect(res.body.webhooks[0].reinvocationPolicy).toBeUndefined();
  });

  it('422 naming webhooks[i].sideEffects when it is missing', async () => {
    const res = await req('POST', `${BASE}/mutatingwebhookconfigurations`, { metadata: { name: 'bad' }, webhooks: [hook('a.example.com', { sideEffects: undefined })] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { name: 'bad', group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration' } });
    // kube's cause; the generated schema (OpenAPI marks sideEffects required) adds a bare `Required value` beside it
    expect(res.body.details.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value: must specify one of None, NoneOnDryRun', field: 'webhooks[0].sideEffects' });
    expect(res.body.details.causes.every((c: { field: string }) => c.field === 'webhooks[0].sideEffects')).toBe(true);
  });

  it('bumps generation when the webhooks change', async () => {
    const res = await req('PATCH', `${BASE}/validatingwebhookconfigurations/vwc`, { webhooks: [hook('a.example.com', { timeoutSeconds: 5 })] });
    expect(res.status).toBe(200);
    expect(res.body.metadata.generation).toBe(2);
  });

  it('reports a CEL compile error from the caller’s check', async () => {
    const res = await req('POST', `${BASE}/validatingadmissionpolicies`, {
      metadata: { name: 'p' },
      spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }, validations: [{ expression: 'size(' }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: `Invalid value: "size(": compilation failed: ERROR: <input>:1:2: Syntax error: missing ')'`, field: 'spec.validations[0].expression' },
    ]);
  });

  it('a policy: status ignored on create and main updates, spec kept on status updates, generation on spec changes', async () => {
    const created = await req('POST', `${BASE}/validatingadmissionpolicies`, {
      metadata: { name: 'p' },
      spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }, validations: [{ expression: 'true' }] },
      status: { observedGeneration: 9 },
    });
    expect(created.status).toBe(201);
    expect(created.body.status?.observedGeneration).toBeUndefined();
    expect(created.body.spec).toMatchObject({ failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} } });
    expect(created.body.metadata.generation).toBe(1);

    const status = await req('PATCH', `${BASE}/validatingadmissionpolicies/p/status`, { spec: { failurePolicy: 'Ignore' }, status: { observedGeneration: 1 } });
    expect(status.status).toBe(200);
    expect(status.body.status.observedGeneration).toBe(1);
    expect(status.body.spec.failurePolicy).toBe('Fail');
    expect(status.body.metadata.generation).toBe(1);

    const badStatus = await req('PATCH', `${BASE}/validatingadmissionpolicies/p/status`, { status: { typeChecking: { expressionWarnings: [{ fieldRef: '', warning: '' }] } } });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      'status.typeChecking.expressionWarnings[0].warning',
      'status.typeChecking.expressionWarnings[0].fieldRef',
    ]);

    const main = await req('PATCH', `${BASE}/validatingadmissionpolicies/p`, { spec: { failurePolicy: 'Ignore' }, status: { observedGeneration: 7 } });
    expect(main.status).toBe(200);
    expect(main.body.spec.failurePolicy).toBe('Ignore');
    expect(main.body.status.observedGeneration).toBe(1);
    expect(main.body.metadata.generation).toBe(2);
  });

  it('a binding with Deny and Warn is refused with kube’s message', async () => {
    const res = await req('POST', `${BASE}/validatingadmissionpolicybindings`, { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny', 'Warn'] } });
    expect(res.status).toBe(422);
    expect(res.body.details.causes[0]).toMatchObject({
      field: 'spec.validationActions',
      message: expect.stringContaining('must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'),
    });
  });

  it('tables show kube’s columns', async () => {
    expect((await req('POST', `${BASE}/validatingadmissionpolicybindings`, { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'cm', parameterNotFoundAction: 'Deny' } } })).status).toBe(201);
    const bindings = await req('GET', `${BASE}/validatingadmissionpolicybindings`, undefined, TABLE);
    expect(bindings.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(bindings.body.rows[0].cells.slice(0, 3)).toEqual(['b', 'p', '*/cm']);
    const policies = await req('GET', `${BASE}/validatingadmissionpolicies`, undefined, TABLE);
    expect(policies.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Validations', 'ParamKind', 'Age']);
    expect(policies.body.rows[0].cells.slice(0, 3)).toEqual(['p', 1, '<unset>']);
    const hooks = await req('GET', `${BASE}/validatingwebhookconfigurations`, undefined, TABLE);
    expect(hooks.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Webhooks', 'Age']);
    expect(hooks.body.rows[0].cells.slice(0, 2)).toEqual(['vwc', 1]);
  });
});
