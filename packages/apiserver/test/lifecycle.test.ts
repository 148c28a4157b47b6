import { beforeEach, describe, expect, it } from 'vitest';
import { configMap, startHarness, type Harness } from './harness.js';

const MERGE = { 'content-type': 'application/merge-patch+json' };
const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('two-phase deletion and namespaces', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });

  it('keeps an object with finalizers until the last one is removed', async () => {
    const CM = '/api/v1/namespaces/default/configmaps';
    await h.req('POST', CM, configMap('f', {}, { finalizers: ['example.com/a', 'example.com/b'] }));
    const first = await h.req('DELETE', `${CM}/f`);
    expect(first.status).toBe(200);
    const stamp = first.body.metadata.deletionTimestamp;
    expect(stamp).toMatch(/Z$/);
    const second = await h.req('DELETE', `${CM}/f`);
    expect(second.body.metadata.deletionTimestamp).toBe(stamp);
    const one = await h.req('PATCH', `${CM}/f`, { metadata: { finalizers: ['example.com/b'] } }, MERGE);
    expect(one.status).toBe(200);
    expect((await h.req('GET', `${CM}/f`)).body.metadata.deletionTimestamp).toBe(stamp);
    const last = await h.req('PATCH', `${CM}/f`, { metadata: { finalizers: null } }, MERGE);
    expect(last.status).toBe(200);
    expect((await h.req('GET', `${CM}/f`)).status).toBe(404);
  });

  it('deletes a namespace in phases: Terminating, contents gone, then the namespace; no new content meanwhile', async () => {
    expect((await h.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    await h.req('POST', '/api/v1/namespaces/team/configmaps', configMap('a'));
    await h.req('POST', '/api/v1/namespaces/team/configmaps', configMap('held', {}, { finalizers: ['example.com/hold'] }));
    const del = await h.req('DELETE', '/api/v1/namespaces/team');
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe('Terminating');
    expect(del.body.metadata.deletionTimestamp).toBeDefined();

    const blocked = await h.req('POST', '/api/v1/namespaces/team/configmaps', configMap('late'));
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
    expect(blocked.body.details.causes[0].reason).toBe('NamespaceTerminating');

    await until(async () => (await h.req('GET', '/api/v1/namespaces/team/configmaps/a')).status === 404, 'content deletion');
    // The controller deletes the contents one after another: the held one is marked for deletion after `a` is gone.
    await until(async () => (await h.req('GET', '/api/v1/namespaces/team/configmaps/held')).body.metadata?.deletionTimestamp !== undefined, 'held content marked');
    expect((await h.req('GET', '/api/v1/namespaces/team/configmaps/held')).status).toBe(200);
    expect((await h.req('GET', '/api/v1/namespaces/team')).status).toBe(200);

    await h.req('PATCH', '/api/v1/namespaces/team/configmaps/held', { metadata: { finalizers: null } }, MERGE);
    await until(async () => (await h.req('GET', '/api/v1/namespaces/team')).status === 404, 'namespace removal');
  });

  it('refuses to delete the immortal namespaces', async () => {
    const res = await h.req('DELETE', '/api/v1/namespaces/default');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
  });

  it('checks delete preconditions', async () => {
    const CM = '/api/v1/namespaces/default/configmaps';
    await h.req('POST', CM, configMap('pre'));
    const res = await h.req('DELETE', `${CM}/pre`, { preconditions: { uid: 'other' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/Precondition failed: UID in precondition: other, UID in object meta: /);
  });
});

describe('subresources', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  const D = '/apis/apps/v1/namespaces/default/deployments';
  const deployment = {
    metadata: { name: 'web' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas: 5 },
  };

  it('status: main writes ignore status, status writes change only status', async () => {
    const created = (await h.req('POST', D, deployment)).body;
    expect(created.status).toEqual({}); // kube's empty DeploymentStatus, whatever the client sent
    const status = await h.req('PUT', `${D}/web/status`, { ...created, spec: { ...created.spec, replicas: 9 }, status: { replicas: 1 } });
    expect(status.status).toBe(200);
    expect(status.body.status).toEqual({ replicas: 1 });
    expect(status.body.spec.replicas).toBe(1);
    const main = await h.req('PUT', `${D}/web`, { ...status.body, status: { replicas: 7 } });
    expect(main.body.status).toEqual({ replicas: 1 });
    // The status write is recorded in managedFields, as its own entry with `subresource: status`.
    const byStatus = await h.req('PATCH', `${D}/web/status?fieldManager=controller`, { status: { replicas: 2 } }, MERGE);
    expect(byStatus.body.metadata.managedFields).toContainEqual(
      expect.objectContaining({ manager: 'controller', operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:replicas': {} } } }),
    );
  });

  it('scale: reads and writes replicas through autoscaling/v1 Scale', async () => {
    await h.req('POST', D, deployment);
    const scale = await h.req('GET', `${D}/web/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' },
    });
    const put = await h.req('PUT', `${D}/web/scale`, { ...scale.body, spec: { replicas: 4 } });
    expect(put.status).toBe(200);
    expect(put.body.spec.replicas).toBe(4);
    expect((await h.req('GET', `${D}/web`)).body.spec.replicas).toBe(4);
    const patched = await h.req('PATCH', `${D}/web/scale?fieldManager=autoscaler`, { spec: { replicas: 2 } }, MERGE);
    expect(patched.body.spec.replicas).toBe(2);
    // The scale write owns spec.replicas, in an entry with `subresource: scale` (kubectl scale shows as one).
    const managed = (await h.req('GET', `${D}/web`)).body.metadata.managedFields;
    expect(managed).toContainEqual(
      expect.objectContaining({ manager: 'autoscaler', operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }),
    );
    const bad = await h.req('PUT', `${D}/web/scale`, { spec: { replicas: -1 } });
    expect(bad.status).toBe(422);
  });

  it('eviction: deletes the pod, or 429 when a disruption budget allows none', async () => {
    const P = '/api/v1/namespaces/default/pods';
    const pod = (name: string) => ({ metadata: { name, labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    await h.req('POST', P, pod('p1'));
    await h.req('POST', P, pod('p2'));
    const evict = (name: string) =>
      h.req('POST', `${P}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });
    const PDB = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const budget = await h.req('POST', PDB, { metadata: { name: 'db' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } });
    // kube's PodDisruptionBudget strategy needs the resourceVersion on every update, status too.
    await h.req('PUT', `${PDB}/db/status`, {
      metadata: { name: 'db', resourceVersion: budget.body.metadata.resourceVersion },
      status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, observedGeneration: 1 },
    });
    const ok = await evict('p1');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await h.req('GET', `${P}/p1`)).status).toBe(404);
    const refused = await evict('p2');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(refused.body.details.causes[0].reason).toBe('DisruptionBudget');
    expect((await h.req('GET', `${P}/p2`)).status).toBe(200);
  });

  it('eviction: a request without an Eviction object is 400 and evicts nothing (no admission is skipped)', async () => {
    const P = '/api/v1/namespaces/default/pods';
    await h.req('POST', P, { metadata: { name: 'kept' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const post = (body: string) =>
      h.server.fetch(new Request(`http://kapi.test${P}/kept/eviction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    const empty = await post('');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'the request body is empty' });
    for (const body of ['[]', '"evict"', '1', 'null']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('the body of the request must be a single Eviction object');
    }
    expect((await h.req('GET', `${P}/kept`)).status).toBe(200);
  });

  it('access reviews answer allowed under AlwaysAllow', async () => {
    const res = await h.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'default' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toEqual({ allowed: true });
    const who = await h.req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(who.body.status.userInfo.username).toBe('system:anonymous');
  });
});

describe('unimplemented subresources', () => {
  it('answer 404 instead of the parent object', async () => {
    const h = await startHarness();
    await h.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const log = await h.req('GET', '/api/v1/namespaces/default/pods/p/log');
    expect(log.status).toBe(404);
    expect(log.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });
});

describe('delete options', () => {
  it('are validated as kube validates DeleteOptions, and dryRun in the body deletes nothing', async () => {
    const h = await startHarness();
    const CM = '/api/v1/namespaces/default/configmaps';
    await h.req('POST', CM, configMap('d'));
    const bad = await h.req('DELETE', `${CM}/d?propagationPolicy=Sideways`);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan"',
    );
    const both = await h.req('DELETE', `${CM}/d`, { propagationPolicy: 'Background', orphanDependents: false });
    expect(both.status).toBe(422);
    const dry = await h.req('DELETE', `${CM}/d`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
    expect(dry.status).toBe(200);
    expect((await h.req('GET', `${CM}/d`)).status).toBe(200);
    const ok = await h.req('DELETE', `${CM}/d?propagationPolicy=Background&gracePeriodSeconds=0`);
    expect(ok.status).toBe(200);
    expect((await h.req('GET', `${CM}/d`)).status).toBe(404);
  });
});
