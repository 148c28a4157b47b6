import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const ADM = '/apis/admissionregistration.k8s.io/v1';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const CMS = '/api/v1/namespaces/default/configmaps';

const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
  },
});

const replicaLimit = {
  metadata: { name: 'replica-limit' },
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
    validations: [
      {
        expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
        messageExpression: "'replicas must be no greater than ' + params.data.maxReplicas",
        reason: 'Forbidden',
      },
    ],
  },
};
const binding = (name: string, actions: string[], paramRef: Record<string, unknown> = { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' }) => ({
  metadata: { name },
  spec: { policyName: 'replica-limit', validationActions: actions, paramRef },
});

describe('ValidatingAdmissionPolicies through the server', () => {
  let h: Harness;
  const made: string[] = [];
  const create = async (path: string, body: unknown) => {
    const res = await h.req('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push(`${path}/${res.body.metadata.name}`);
    return res.body;
  };

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.server.stop());
  afterEach(async () => {
    for (const path of made.splice(0).reverse()) await h.req('DELETE', path);
    await h.req('DELETE', DEPLOYMENTS);
  });

  it('Deny: a Deployment over the param ConfigMap\'s limit is refused with kube\'s message and the reason\'s code', async () => {
    await create(CMS, { metadata: { name: 'limits' }, data: { maxReplicas: '3' } });
    await create(`${ADM}/validatingadmissionpolicies`, replicaLimit);
    await create(`${ADM}/validatingadmissionpolicybindings`, binding('replica-limit-deny', ['Deny']));
    const denied = await h.until(async () => {
      const res = await h.req('POST', `${DEPLOYMENTS}?dryRun=All`, deployment('big', 5));
      return res.status !== 201 && res;
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: replicas must be no greater than 3`,
    });
    expect((await h.req('POST', DEPLOYMENTS, deployment('small', 2))).status).toBe(201);
    // An update is judged too, and the params are read afresh.
    const scaled = await h.req('PATCH', `${DEPLOYMENTS}/small`, { spec: { replicas: 4 } }, { 'content-type': 'application/merge-patch+json' });
    expect(scaled.status).toBe(403);
    await h.req('PATCH', `${CMS}/limits`, { data: { maxReplicas: '10' } }, { 'content-type': 'application/merge-patch+json' });
    expect((await h.req('PATCH', `${DEPLOYMENTS}/small`, { spec: { replicas: 4 } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
  });

  it('Warn: the request goes through with kube\'s warning; a missing param with parameterNotFoundAction Deny is refused', async () => {
    await create(CMS, { metadata: { name: 'limits' }, data: { maxReplicas: '1' } });
    await create(`${ADM}/validatingadmissionpolicies`, replicaLimit);
    await create(`${ADM}/validatingadmissionpolicybindings`, binding('replica-limit-warn', ['Warn', 'Audit']));
    const warned = await h.until(async () => {
      const res = await h.req('POST', `${DEPLOYMENTS}?dryRun=All`, deployment('w', 2));
      return res.headers.get('warning') ? res : undefined;
    });
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe(
      `299 - "Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-warn': replicas must be no greater than 1"`,
    );

    await create(`${ADM}/validatingadmissionpolicybindings`, binding('missing-param', ['Deny'], { name: 'nope', namespace: 'default', parameterNotFoundAction: 'Deny' }));
    const refused = await h.until(async () => {
      const res = await h.req('POST', `${DEPLOYMENTS}?dryRun=All`, deployment('m', 1));
      return res.status !== 201 && res;
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      "deployments.apps \"m\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'missing-param' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  });

  it('a policy that does not compile is refused at create; status.typeChecking reports what does not fit the matched kinds', async () => {
    const bad = await h.req('POST', `${ADM}/validatingadmissionpolicies`, {
      metadata: { name: 'bad' },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas >' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.validations[0].expression' });
    expect(bad.body.details.causes[0].message).toMatch(/^Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:\d+: Syntax error/);

    await create(`${ADM}/validatingadmissionpolicies`, {
      metadata: { name: 'typo' },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicaz > 1' }] },
    });
    await create(`${ADM}/validatingadmissionpolicies`, {
      metadata: { name: 'fine' },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas > 1' }] },
    });
    const typo = await h.until(async () => {
      const res = await h.req('GET', `${ADM}/validatingadmissionpolicies/typo`);
      return res.body.status?.observedGeneration === 1 && res.body;
    });
    expect(typo.status.typeChecking.expressionWarnings).toHaveLength(1);
    expect(typo.status.typeChecking.expressionWarnings[0].fieldRef).toBe('spec.validations[0].expression');
    expect(typo.status.typeChecking.expressionWarnings[0].warning).toContain("apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'");
    const fine = await h.until(async () => {
      const res = await h.req('GET', `${ADM}/validatingadmissionpolicies/fine`);
      return res.body.status?.observedGeneration === 1 && res.body;
    });
    expect(fine.status.typeChecking).toEqual({});
  });

  it('kube\'s plugin order: a policy judges the object a mutating webhook would have changed, after in-process admission', async () => {
    // Without webhooks: a policy on namespaces' content refuses what NamespaceLifecycle (in-process) lets through.
    await create(`${ADM}/validatingadmissionpolicies`, {
      metadata: { name: 'no-empty-data' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        matchConditions: [{ name: 'labelled', expression: "has(object.metadata.labels) && 'checked' in object.metadata.labels" }],
        validations: [{ expression: 'has(object.data) && size(object.data) > 0', message: 'data may not be empty' }],
      },
    });
    await create(`${ADM}/validatingadmissionpolicybindings`, { metadata: { name: 'no-empty-data' }, spec: { policyName: 'no-empty-data', validationActions: ['Deny'] } });
    const refused = await h.until(async () => {
      const res = await h.req('POST', `${CMS}?dryRun=All`, { metadata: { name: 'e', labels: { checked: 'yes' } } });
      return res.status !== 201 && res;
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`configmaps "e" is forbidden: ValidatingAdmissionPolicy 'no-empty-data' with binding 'no-empty-data' denied request: data may not be empty`);
    // The match condition leaves unlabelled ConfigMaps alone.
    expect((await h.req('POST', `${CMS}?dryRun=All`, { metadata: { name: 'u' } })).status).toBe(201);
    // A ConfigMap in a namespace that does not exist is NamespaceLifecycle's 404 first.
    expect((await h.req('POST', '/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'e', labels: { checked: 'yes' } } })).status).toBe(404);
  });
});
