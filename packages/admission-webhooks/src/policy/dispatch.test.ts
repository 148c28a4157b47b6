// The ValidatingAdmissionPolicy engine against fake params, namespaces and authorizer, with kube's texts.
import type { AdmissionAttributes } from '@kapi/apiserver';
import type { KubeObject, ResourceInfo } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { PolicyCompilerCache, policyDenialError, validateRequest, type PolicyDeps, type ValidatingAdmissionPolicy, type ValidatingAdmissionPolicyBinding } from './index.js';

const info = (group: string, version: string, kind: string, plural: string, scope: 'Namespaced' | 'Cluster' = 'Namespaced') =>
  ({ group, version, kind, plural, scope, listKind: `${kind}List`, singular: kind.toLowerCase(), shortNames: [], categories: [], verbs: [], subresources: {}, printerColumns: [] }) as unknown as ResourceInfo;
const deployments = info('apps', 'v1', 'Deployment', 'deployments');

const attrsOf = (object: KubeObject | undefined, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  resource: deployments,
  subresource: '',
  namespace: 'prod',
  name: 'web',
  object,
  user: { username: 'alice', groups: ['devs'] },
  dryRun: false,
  options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
  warn: () => {},
  annotate: () => {},
  ...over,
});
const deployment = (replicas: number, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod', labels }, spec: { replicas } });

const matchDeployments = { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], operations: ['CREATE', 'UPDATE'] }], matchPolicy: 'Equivalent' as const };

let generation = 0;
const policy = (spec: Partial<ValidatingAdmissionPolicy['spec']>, name = 'max-replicas'): ValidatingAdmissionPolicy => ({
  metadata: { name, uid: `uid-${name}-${++generation}`, generation: 1 },
  spec: { matchConstraints: matchDeployments, failurePolicy: 'Fail', ...spec },
});
const binding = (spec: Partial<ValidatingAdmissionPolicyBinding['spec']> = {}, name = 'b'): ValidatingAdmissionPolicyBinding => ({
  metadata: { name },
  spec: { policyName: 'max-replicas', validationActions: ['Deny'], ...spec },
});

const configMaps: KubeObject[] = [
  { metadata: { name: 'limits', namespace: 'prod', labels: { tier: 'a' } }, data: { max: '5' } },
  { metadata: { name: 'strict', namespace: 'prod', labels: { tier: 'a' } }, data: { max: '2' } },
  { metadata: { name: 'global', namespace: 'policies', labels: {} }, data: { max: '10' } },
];
const namespaces: Record<string, KubeObject> = { prod: { metadata: { name: 'prod', labels: { env: 'prod' } } }, dev: { metadata: { name: 'dev', labels: { env: 'dev' } } } };

const deps = (over: Partial<PolicyDeps> = {}): PolicyDeps => ({
  paramKind: (k) =>
    k.kind === 'ConfigMap'
      ? {
          namespaced: true,
          get: async (ns, name) => configMaps.find((c) => c.metadata?.namespace === ns && c.metadata?.name === name),
          list: async (ns, selector) =>
            configMaps.filter((c) => c.metadata?.namespace === ns && Object.entries(selector.matchLabels ?? {}).every(([key, v]) => (c.metadata?.labels as Record<string, string>)?.[key] === v)),
        }
      : undefined,
  getNamespace: async (name) => namespaces[name],
  ...over,
});

const cache = new PolicyCompilerCache();
const run = (p: ValidatingAdmissionPolicy, bindings: ValidatingAdmissionPolicyBinding[], attrs = attrsOf(deployment(3)), d = deps()) =>
  validateRequest([{ policy: p, compiled: cache.get(p), bindings }], attrs, d);

const deniedBy = (message: string, code = 422, reason = 'Invalid') => ({ denied: { code, reason, message }, warnings: [], auditAnnotations: {} });
const allowed = { warnings: [], auditAnnotations: {} };

describe('validations and actions', () => {
  const max2 = policy({ validations: [{ expression: 'object.spec.replicas <= 2' }] });

  it('denies with kube text, default reason Invalid (422)', async () => {
    expect(await run(max2, [binding()])).toEqual(deniedBy("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: failed expression: object.spec.replicas <= 2"));
    expect(await run(max2, [binding()], attrsOf(deployment(1)))).toEqual(allowed);
  });

  it('uses message, messageExpression and reason', async () => {
    const p = policy({
      validations: [
        { expression: 'object.spec.replicas <= 2', message: ' too many ', reason: 'Forbidden' },
        { expression: 'object.spec.replicas <= 1', messageExpression: "'replicas ' + string(object.spec.replicas) + ' > 1'", reason: 'RequestEntityTooLarge' },
      ],
    });
    expect((await run(p, [binding()])).denied).toEqual({ code: 403, reason: 'Forbidden', message: "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: too many" });
    const only2nd = policy({ validations: [p.spec.validations![1]] });
    expect((await run(only2nd, [binding()])).denied).toEqual({ code: 413, reason: 'RequestEntityTooLarge', message: "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: replicas 3 > 1" });
    const unauthorized = policy({ validations: [{ expression: 'false', reason: 'Unauthorized', messageExpression: "'a\\nb'", message: 'fallback' }] });
    expect((await run(unauthorized, [binding()])).denied).toEqual({ code: 401, reason: 'Unauthorized', message: "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: fallback" });
  });

  it('warns and audits per validationActions', async () => {
    const r = await run(max2, [binding({ validationActions: ['Warn', 'Audit'] })]);
    expect(r.denied).toBeUndefined();
    expect(r.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'b': failed expression: object.spec.replicas <= 2"]);
    expect(r.auditAnnotations).toEqual({
      'validation.policy.admission.k8s.io/validation_failure':
        '[{"message":"failed expression: object.spec.replicas \\u003c= 2","policy":"max-replicas","binding":"b","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
    });
  });

  it('evaluates composited variables in validations and messages', async () => {
    const p = policy({
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'tooMany', expression: 'variables.replicas > 2' }],
      validations: [{ expression: '!variables.tooMany', messageExpression: "'got ' + string(variables.replicas)" }],
    });
    expect((await run(p, [binding()])).denied?.message).toBe("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: got 3");
  });

  it('publishes audit annotations under the policy name', async () => {
    const p = policy({
      validations: [{ expression: 'true' }],
      auditAnnotations: [
        { key: 'replicas', valueExpression: "'replicas: ' + string(object.spec.replicas)" },
        { key: 'none', valueExpression: 'null' },
      ],
    });
    expect(await run(p, [binding(), binding({}, 'b2')])).toEqual({ warnings: [], auditAnnotations: { 'max-replicas/replicas': 'replicas: 3' } });
  });

  it('sees the request, the namespace object and the authorizer', async () => {
    const calls: string[] = [];
    const p = policy({
      validations: [
        { expression: "request.operation == 'CREATE' && request.userInfo.username == 'alice' && request.kind.kind == 'Deployment'" },
        { expression: "namespaceObject.metadata.labels.env == 'prod'" },
        { expression: "authorizer.requestResource.check('create').allowed()", message: 'not allowed' },
      ],
    });
    const d = deps({
      authorize: async (a) => {
        calls.push(`${a.user.username} ${a.verb} ${a.resource} ${a.namespace}/${a.name}`);
        return { decision: 'deny' };
      },
    });
    expect((await run(p, [binding()], attrsOf(deployment(3)), d)).denied?.message).toBe("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: not allowed");
    expect(calls).toEqual(['alice create deployments prod/web']);
  });
});

describe('failure policy', () => {
  const broken = (failurePolicy: 'Fail' | 'Ignore') => policy({ failurePolicy, validations: [{ expression: 'object.spec.missing > 1' }] });

  it('denies a runtime error under Fail and ignores it under Ignore', async () => {
    expect(await run(broken('Fail'), [binding()])).toEqual(
      deniedBy("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: expression 'object.spec.missing > 1' resulted in error: no such key: missing"),
    );
    expect(await run(broken('Ignore'), [binding()])).toEqual(allowed);
  });

  it('reports compile errors at evaluation', async () => {
    const p = policy({ validations: [{ expression: 'object.spec.replicas' }] });
    expect((await run(p, [binding()])).denied?.message).toBe(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: compilation error: must evaluate to bool but got dyn",
    );
  });
});

describe('matching', () => {
  it('skips requests outside matchConstraints and excluded ones', async () => {
    const pods = policy({ matchConstraints: { ...matchDeployments, resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['*'] }] }, validations: [{ expression: 'false' }] });
    expect(await run(pods, [binding()])).toEqual(allowed);
    const excluded = policy({ matchConstraints: { ...matchDeployments, excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments'], operations: ['*'], resourceNames: ['web'] }] }, validations: [{ expression: 'false' }] });
    expect(await run(excluded, [binding()])).toEqual(allowed);
  });

  it('applies a binding only where its matchResources match', async () => {
    const p = policy({ validations: [{ expression: 'false' }] });
    const devOnly = binding({ matchResources: { namespaceSelector: { matchLabels: { env: 'dev' } }, objectSelector: {} } });
    expect(await run(p, [devOnly])).toEqual(allowed);
    expect((await run(p, [devOnly], attrsOf(deployment(3), { namespace: 'dev' }))).denied).toBeDefined();
  });

  it('skips a policy whose matchConditions are false, fails on their errors under Fail', async () => {
    const p = (failurePolicy: 'Fail' | 'Ignore', expression: string) => policy({ failurePolicy, matchConditions: [{ name: 'big', expression }], validations: [{ expression: 'false' }] });
    expect(await run(p('Fail', 'object.spec.replicas > 10'), [binding()])).toEqual(allowed);
    expect((await run(p('Fail', 'object.spec.replicas > 1'), [binding()])).denied).toBeDefined();
    expect((await run(p('Fail', 'object.spec.nope > 1'), [binding()])).denied?.message).toBe(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: expression 'object.spec.nope > 1' resulted in error: no such key: nope",
    );
    expect(await run(p('Ignore', 'object.spec.nope > 1'), [binding()])).toEqual(allowed);
    // namespaceObject is null in matchConditions, as kube binds it.
    expect(await run(p('Fail', 'namespaceObject != null'), [binding()])).toEqual(allowed);
  });
});

describe('params', () => {
  const withParams = (failurePolicy: 'Fail' | 'Ignore' = 'Fail') =>
    policy({ failurePolicy, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'params == null || object.spec.replicas <= int(params.data.max)', messageExpression: "'max is ' + params.data.max" }] });

  it('reads a param by name in the request namespace or paramRef.namespace', async () => {
    expect(await run(withParams(), [binding({ paramRef: { name: 'limits' } })])).toEqual(allowed);
    expect((await run(withParams(), [binding({ paramRef: { name: 'strict' } })])).denied?.message).toBe("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: max is 2");
    expect(await run(withParams(), [binding({ paramRef: { name: 'global', namespace: 'policies' } })])).toEqual(allowed);
  });

  it('validates with each param a selector selects', async () => {
    expect((await run(withParams(), [binding({ paramRef: { selector: { matchLabels: { tier: 'a' } } } })])).denied?.message).toBe(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: max is 2",
    );
    expect(await run(withParams(), [binding({ paramRef: { selector: { matchLabels: { tier: 'none' } }, parameterNotFoundAction: 'Allow' } })])).toEqual(allowed);
  });

  it('applies parameterNotFoundAction', async () => {
    expect(await run(withParams(), [binding({ paramRef: { name: 'missing', parameterNotFoundAction: 'Allow' } })])).toEqual(allowed);
    expect(await run(withParams(), [binding({ paramRef: { name: 'missing', parameterNotFoundAction: 'Deny' } })])).toEqual(
      deniedBy("ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"),
    );
    expect(await run(withParams('Ignore'), [binding({ paramRef: { name: 'missing', parameterNotFoundAction: 'Deny' } })])).toEqual(allowed);
  });

  it('binds null params without a paramRef', async () => {
    expect(await run(withParams(), [binding()])).toEqual(allowed);
  });

  it('fails for an unknown paramKind and for namespaced params of cluster-scoped requests', async () => {
    const secrets = policy({ paramKind: { apiVersion: 'v1', kind: 'Secret' }, validations: [{ expression: 'true' }] });
    expect((await run(secrets, [binding({ paramRef: { name: 'x' } })])).denied?.message).toBe(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: failed to configure binding: paramKind kind `&ParamKind{APIVersion:v1,Kind:Secret,}` not known",
    );
    const clusterRequest = attrsOf(deployment(3), { namespace: '' });
    expect((await run(withParams(), [binding({ paramRef: { name: 'limits' } })], clusterRequest)).denied?.message).toBe(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'b' denied request: failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
    );
  });
});

describe('the error kube answers', () => {
  it('is admission Forbidden with the reason and code of the denial and the message as a cause', () => {
    const err = policyDenialError(attrsOf(deployment(3)), { code: 422, reason: 'Invalid', message: 'ValidatingAdmissionPolicy ...' });
    expect(err.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'deployments.apps "web" is forbidden: ValidatingAdmissionPolicy ...',
      details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message: 'ValidatingAdmissionPolicy ...' }] },
    });
  });
});

describe('compile cache', () => {
  it('compiles a policy once per generation', () => {
    const c = new PolicyCompilerCache();
    const p = policy({ validations: [{ expression: 'true' }] });
    expect(c.get(p)).toBe(c.get({ ...p }));
    expect(c.get({ ...p, metadata: { ...p.metadata, generation: 2 } })).not.toBe(c.get(p));
  });
});
