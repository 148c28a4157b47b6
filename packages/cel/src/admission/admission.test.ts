// Admission expressions as kube's VAP and matchConditions compile and evaluate them.
import { describe, expect, it, vi } from 'vitest';
import {
  AdmissionActivation,
  cachingAuthorizer,
  compileAdmissionExpression,
  createAdmissionEnv,
  OUT_OF_BUDGET_MESSAGE,
  type AdmissionAuthorizer,
  type AdmissionInput,
  type AuthorizationAttributes,
} from '../index.js';

const request: AdmissionInput['request'] = {
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'prod',
  operation: 'CREATE',
  userInfo: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'] },
};
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod', labels: { app: 'web' } }, spec: { replicas: 3 } };
const create: AdmissionInput = { object: deployment, oldObject: null, request };

const run = async (expression: string, input: AdmissionInput = create, options = {}) => {
  const c = compileAdmissionExpression(expression, options);
  if (c.error) throw new Error(c.error);
  return c.evaluate(input);
};
const value = async (expression: string, input?: AdmissionInput, options = {}) => {
  const r = await run(expression, input, options);
  if (r.error !== undefined) throw new Error(r.error);
  return r.value;
};
const compileError = (expression: string, options = {}) => compileAdmissionExpression(expression, options).error;

describe('compiling', () => {
  it('reports kube compile errors', () => {
    expect(compileError('foo == 1')).toBe("compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^");
    expect(compileError('request.foo == 1')).toBe("compilation failed: ERROR: <input>:1:8: undefined field 'foo'\n | request.foo == 1\n | .......^");
    expect(compileError('object.spec.replicas >')).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error/);
  });

  it('checks the result type with kube texts', () => {
    expect(compileError('object.spec.paused')).toBe('must evaluate to bool but got dyn');
    expect(compileError('1')).toBe('must evaluate to bool but got int');
    expect(compileError("'x'", { resultType: 'string' })).toBeUndefined();
    expect(compileError('object.metadata.name', { resultType: 'string' })).toBe('must evaluate to string but got dyn');
    expect(compileError('null', { resultType: 'string|null' })).toBeUndefined();
    expect(compileError('1', { resultType: 'string|null' })).toBe('must evaluate to one of [string null_type] but got int');
    expect(compileError('object.spec', { resultType: 'any' })).toBeUndefined();
  });

  it('declares params and authorizer only when asked', () => {
    expect(compileError('params.x == 1')).toContain("undeclared reference to 'params'");
    expect(compileError('params.x == 1', { params: true })).toBeUndefined();
    expect(compileError("authorizer.path('/x').check('get').allowed()")).toContain("undeclared reference to 'authorizer'");
    expect(compileError("authorizer.path('/x').check('get').allowed()", { authorizer: true })).toBeUndefined();
    expect(compileError('variables.x == 1')).toContain("undeclared reference to 'variables'");
  });

  it('estimates an authorization check at kube cost', () => {
    expect(compileAdmissionExpression("authorizer.requestResource.check('get').allowed()", { authorizer: true }).maxCost).toBeGreaterThanOrEqual(350_000);
  });
});

describe('evaluating', () => {
  it('answers true, false, and kube runtime errors', async () => {
    expect(await value('object.spec.replicas > 1')).toBe(true);
    expect(await value('object.spec.replicas > 5')).toBe(false);
    expect(await run('object.spec.missing > 1')).toEqual({ error: "expression 'object.spec.missing > 1' resulted in error: no such key: missing" });
    expect(await value("object.metadata.labels.app + '!'", create, { resultType: 'string' })).toBe('web!');
  });

  it('binds null where kube does', async () => {
    expect(await value('oldObject == null && object != null')).toBe(true);
    const del: AdmissionInput = { object: null, oldObject: deployment, request: { ...request, operation: 'DELETE' } };
    expect(await value("object == null && oldObject.metadata.name == 'web'", del)).toBe(true);
    expect(await value('params == null', create, { params: true })).toBe(true);
    expect(await value('params.max >= object.spec.replicas', { ...create, params: { max: 3 } }, { params: true })).toBe(true);
    expect(await value('namespaceObject == null')).toBe(true);
  });

  it('sees the request as kube builds it', async () => {
    expect(await value("request.operation == 'CREATE' && request.kind.kind == 'Deployment' && request.resource.resource == 'deployments'")).toBe(true);
    expect(await value("request.userInfo.username == 'alice' && 'devs' in request.userInfo.groups && request.dryRun == false")).toBe(true);
    expect(await value("request.requestKind.group == 'apps' && request.name == 'web' && request.namespace == 'prod'")).toBe(true);
    // omitempty fields are absent: kube's `has()` idiom.
    const cluster: AdmissionInput = { ...create, request: { ...request, namespace: undefined } };
    expect(await value('!has(request.namespace) && !has(request.subResource)', cluster)).toBe(true);
  });

  it('sees the namespace object', async () => {
    const ns = { metadata: { name: 'prod', labels: { env: 'prod' }, managedFields: [{}] }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
    expect(await value("namespaceObject.metadata.labels.env == 'prod' && namespaceObject.status.phase == 'Active'", { ...create, namespaceObject: ns })).toBe(true);
    expect(await value("namespaceObject.spec.finalizers == ['kubernetes'] && namespaceObject.metadata.name == 'prod'", { ...create, namespaceObject: ns })).toBe(true);
    // Fields kube does not keep are not declared.
    expect(compileError('has(namespaceObject.metadata.managedFields)')).toContain("undefined field 'managedFields'");
  });
});

describe('cost', () => {
  it('stops an expression at the per-call limit with kube text', async () => {
    const r = await run('[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, true))))))');
    expect(r).toEqual({ error: expect.stringMatching(/resulted in error: operation cancelled: actual cost limit exceeded$/) });
  });

  it('runs out of the activation budget with kube text, then stops', async () => {
    const env = createAdmissionEnv();
    const expr = env.compile('[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, true))');
    const activation = new AdmissionActivation(env, create, { budget: 150 });
    expect((await activation.evaluate(expr)).value).toBe(true);
    expect(await activation.evaluate(expr)).toEqual({ error: OUT_OF_BUDGET_MESSAGE, outOfBudget: true });
    expect(await activation.evaluate(env.compile('true'))).toEqual({ error: OUT_OF_BUDGET_MESSAGE, outOfBudget: true });
  });

  it('allows two authorization checks per expression, not three (kube: 350,000 each)', async () => {
    const allow: AdmissionAuthorizer = async () => ({ decision: 'allow' });
    const check = (v: string) => `authorizer.group('').resource('pods').check('${v}').allowed()`;
    const two = await run(`${check('get')} && ${check('list')}`, { ...create, authorizer: allow }, { authorizer: true });
    expect(two.value).toBe(true);
    const three = await run(`${check('get')} && ${check('list')} && ${check('watch')}`, { ...create, authorizer: allow }, { authorizer: true });
    expect(three.error).toMatch(/operation cancelled: actual cost limit exceeded$/);
  });
});

describe('authorizer', () => {
  const recording = (answer: (a: AuthorizationAttributes) => Awaited<ReturnType<AdmissionAuthorizer>>) => {
    const calls: AuthorizationAttributes[] = [];
    const fn: AdmissionAuthorizer = async (a) => {
      calls.push(a);
      return answer(a);
    };
    return { calls, fn };
  };

  it('resolves checks asynchronously in rounds, with kube attributes', async () => {
    const { calls, fn } = recording((a) => (a.verb === 'delete' ? { decision: 'allow', reason: 'rbac' } : { decision: 'deny', reason: 'nope' }));
    const expr = "authorizer.group('apps').resource('deployments').subresource('scale').namespace('prod').name('web').check('delete').allowed() && authorizer.path('/healthz').check('get').reason() == 'nope'";
    expect(await value(expr, { ...create, authorizer: fn }, { authorizer: true })).toBe(true);
    expect(calls).toEqual([
      { user: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'] }, verb: 'delete', resourceRequest: true, path: '', apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web' },
      { user: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'] }, verb: 'get', resourceRequest: false, path: '/healthz', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' },
    ]);
  });

  it('checks the request resource and service accounts', async () => {
    const { calls, fn } = recording(() => ({ decision: 'allow' }));
    expect(await value("authorizer.requestResource.check('update').allowed() && authorizer.serviceAccount('kube-system', 'ctrl').group('').resource('pods').check('get').allowed()", { ...create, authorizer: fn }, { authorizer: true })).toBe(true);
    expect(calls.map((c) => [c.user.username, c.verb, c.apiGroup, c.resource, c.namespace, c.name])).toEqual([
      ['alice', 'update', 'apps', 'deployments', 'prod', 'web'],
      ['system:serviceaccount:kube-system:ctrl', 'get', '', 'pods', '', ''],
    ]);
    expect(calls[1].user.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:kube-system']);
    expect((await run("authorizer.serviceAccount('Bad_NS', 'x').path('/').check('get').allowed()", { ...create, authorizer: fn }, { authorizer: true })).error).toBe(
      "expression 'authorizer.serviceAccount('Bad_NS', 'x').path('/').check('get').allowed()' resulted in error: Invalid service account namespace",
    );
  });

  it('reports a failing authorizer as an errored decision', async () => {
    const fn: AdmissionAuthorizer = async () => {
      throw new Error('webhook down');
    };
    expect(await value("authorizer.path('/x').check('get').errored() && authorizer.path('/x').check('get').error() == 'webhook down'", { ...create, authorizer: fn }, { authorizer: true })).toBe(true);
  });

  it('asks each distinct check once per request with cachingAuthorizer', async () => {
    const { calls, fn } = recording(() => ({ decision: 'allow' }));
    const shared = cachingAuthorizer(fn);
    const env = createAdmissionEnv();
    const expr = env.compile("authorizer.path('/x').check('get').allowed()", { authorizer: true });
    expect((await new AdmissionActivation(env, { ...create, authorizer: shared }).evaluate(expr)).value).toBe(true);
    expect((await new AdmissionActivation(env, { ...create, authorizer: shared }).evaluate(expr)).value).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('retries a round that went over the limit only because an answer was missing', async () => {
    const expensive = '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, true))))))';
    const { fn } = recording(() => ({ decision: 'allow' }));
    expect(await value(`authorizer.path('/a').check('get').allowed() || ${expensive}`, { ...create, authorizer: fn }, { authorizer: true })).toBe(true);
  });

  it('is not bound without an authorizer', async () => {
    expect((await run("authorizer.path('/x').check('get').allowed()", create, { authorizer: true })).error).toMatch(/^expression .* resulted in error: /);
  });
});

describe('composited variables', () => {
  it('evaluates each variable at most once per activation', async () => {
    const env = createAdmissionEnv({ variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'double', expression: 'variables.replicas * 2' }] });
    const spy = vi.spyOn(env.variables[0].program!, 'eval');
    const activation = new AdmissionActivation(env, create);
    expect((await activation.evaluate(env.compile('variables.double == 6 && variables.replicas == 3'))).value).toBe(true);
    expect((await activation.evaluate(env.compile('variables.replicas > 1'))).value).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    // A new activation (kube: a new ForInput) evaluates again.
    await new AdmissionActivation(env, create).evaluate(env.compile('variables.replicas > 1'));
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('types later variables by earlier ones; later names are undeclared', () => {
    const env = createAdmissionEnv({ variables: [{ name: 'a', expression: "'x'" }, { name: 'b', expression: 'variables.c' }, { name: 'c', expression: '1' }] });
    expect(env.variables[1].error).toContain("undefined field 'c'");
    expect(env.compile('variables.a', { resultType: 'string' }).error).toBeUndefined();
    expect(env.compile('variables.a').error).toBe('must evaluate to bool but got string');
  });

  it('propagates variable errors with kube texts', async () => {
    const env = createAdmissionEnv({ variables: [{ name: 'bad', expression: 'object.nope' }, { name: 'broken', expression: 'nope' }] });
    const activation = new AdmissionActivation(env, create);
    expect(await activation.evaluate(env.compile('variables.bad == 1'))).toEqual({
      error: `expression 'variables.bad == 1' resulted in error: composited variable "bad" fails to evaluate: no such key: nope`,
    });
    expect((await activation.evaluate(env.compile('variables.broken == 1'))).error).toBe(
      "expression 'variables.broken == 1' resulted in error: composited variable \"broken\" fails to compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^",
    );
  });

  it('resolves authorizer checks inside variables', async () => {
    const calls: string[] = [];
    const env = createAdmissionEnv({ variables: [{ name: 'canGet', expression: "authorizer.group('').resource('secrets').check('get').allowed()" }] });
    const r = await new AdmissionActivation(env, {
      ...create,
      authorizer: async (a) => {
        calls.push(a.verb);
        return { decision: 'allow' };
      },
    }).evaluate(env.compile('variables.canGet', { authorizer: true }));
    expect(r.value).toBe(true);
    expect(calls).toEqual(['get']);
  });
});

describe('type checking against schemas', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } };

  it('warns about expressions that do not check against the schema, and still compiles them', () => {
    const env = createAdmissionEnv({ schemas: { object: schema } });
    const bad = env.compile('object.spec.replicaz > 1');
    expect(bad.error).toBeUndefined();
    expect(bad.warning).toBe("ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^");
    expect(env.compile("object.spec.replicas.startsWith('x')").warning).toContain("found no matching overload for 'startsWith' applied to 'int.(string)'");
    expect(env.compile('object.spec.replicas > 1').warning).toBeUndefined();
    expect(env.compile('object.metadata.name == "x"').warning).toBeUndefined();
  });
});
