import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { hasOpenssl, makePki } from './tls.js';
import { patchOf, startWebhook, type TestWebhook } from './webhook-server.js';

const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';

const pod = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});
const configMap = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data,
});

describe.skipIf(!hasOpenssl)('admission webhooks over HTTPS', () => {
  let h: Harness;
  let wh: TestWebhook;
  let caBundle: string;
  const configs: string[] = [];

  /** A webhook configuration with one webhook per entry, each at its own path of the test server. */
  const configure = async (collection: string, name: string, hooks: Record<string, unknown>[]) => {
    const body = {
      metadata: { name },
      webhooks: hooks.map((hook) => ({
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        ...hook,
        clientConfig: { url: wh.url(String(hook.path)), caBundle, ...(hook.clientConfig as object) },
        path: undefined,
      })),
    };
    const res = await h.req('POST', collection, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    configs.push(`${collection}/${name}`);
  };
  /** Waits until a request reaches the webhook at `path` (a configuration change takes effect asynchronously). */
  const reaches = async (path: string, probe: () => Promise<unknown>) => {
    await h.until(async () => {
      const before = wh.reviews.filter((r) => r.path === path).length;
      await probe();
      return wh.reviews.filter((r) => r.path === path).length > before;
    });
  };
  const rule = (resources: string[], operations = ['CREATE'], apiGroups = [''], apiVersions = ['v1']) => ({ apiGroups, apiVersions, resources, operations });

  beforeAll(async () => {
    const pki = makePki(['hooksvc.default.svc']);
    caBundle = pki.caBundle;
    wh = await startWebhook(pki);
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.stop();
    await wh.close();
  });
  afterEach(async () => {
    for (const path of configs.splice(0)) await h.req('DELETE', path);
    await h.req('DELETE', PODS);
    await h.req('DELETE', CMS);
    wh.reviews.length = 0;
  });

  it('a mutating webhook adds a label and a sidecar through JSONPatch, and sees the request as kube sends it', async () => {
    wh.handle('/mutate-pods', () => ({
      allowed: true,
      ...patchOf([
        { op: 'add', path: '/metadata/labels/injected', value: 'true' },
        { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'busybox' } },
      ]),
    }));
    await configure(MWC, 'pod-injector', [{ name: 'inject.example.com', path: '/mutate-pods', rules: [rule(['pods'])] }]);
    await reaches('/mutate-pods', () => h.req('POST', `${PODS}?dryRun=All`, pod('probe')));
    const created = await h.req('POST', `${PODS}?fieldManager=tester`, pod('web', { app: 'web' }));
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ app: 'web', injected: 'true' });
    expect(created.body.spec.containers.map((c: any) => c.name)).toEqual(['app', 'sidecar']);
    // Defaults apply to what the webhook added, as kube defaults the patched object.
    expect(created.body.spec.containers[1].imagePullPolicy).toBe('Always');
    const got = await h.req('GET', `${PODS}/web`);
    expect(got.body.spec.containers).toHaveLength(2);

    const { review } = wh.reviews.filter((r) => r.path === '/mutate-pods').at(-1)!;
    expect(review.apiVersion).toBe('admission.k8s.io/v1');
    expect(review.kind).toBe('AdmissionReview');
    const req = review.request;
    expect(req.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.kind).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(req.resource).toEqual({ group: '', version: 'v1', resource: 'pods' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(req.requestResource).toEqual({ group: '', version: 'v1', resource: 'pods' });
    expect(req.name).toBe('web');
    expect(req.namespace).toBe('default');
    expect(req.operation).toBe('CREATE');
    expect(req.dryRun).toBe(false);
    expect(req.userInfo.username).toBeTruthy();
    expect(req.object.metadata.name).toBe('web');
    expect(req.oldObject).toBeNull();
    expect(req.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' });
  });

  it('a validating webhook denies with its message and code; its warnings reach the client', async () => {
    wh.handle('/deny-cm', (req) =>
      'forbidden' in (req.object?.data ?? {})
        ? { allowed: false, status: { code: 403, message: 'key "forbidden" is not allowed' } }
        : { allowed: true, warnings: ['checked by deny-cm'] },
    );
    await configure(VWC, 'cm-policy', [{ name: 'deny.example.com', path: '/deny-cm', rules: [rule(['configmaps'], ['CREATE', 'UPDATE'])] }]);
    await reaches('/deny-cm', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const denied = await h.req('POST', CMS, configMap('bad', { forbidden: 'x' }));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ kind: 'Status', status: 'Failure', code: 403, message: 'admission webhook "deny.example.com" denied the request: key "forbidden" is not allowed' });
    expect((await h.req('GET', `${CMS}/bad`)).status).toBe(404);
    const ok = await h.req('POST', CMS, configMap('good', { fine: 'x' }));
    expect(ok.status).toBe(201);
    expect(ok.headers.get('warning')).toContain('checked by deny-cm');
  });

  it('a denial without a code is 400, without a message says so', async () => {
    wh.handle('/deny-all', () => ({ allowed: false }));
    await configure(VWC, 'deny-all', [{ name: 'all.example.com', path: '/deny-all', rules: [rule(['configmaps'])] }]);
    await h.until(async () => (await h.req('POST', CMS, configMap('x'))).status === 400);
    const res = await h.req('POST', CMS, configMap('y'));
    expect(res.body.message).toBe('admission webhook "all.example.com" denied the request without explanation');
  });

  it('dry run: None and NoneOnDryRun webhooks are called with dryRun true and nothing is stored', async () => {
    await configure(VWC, 'dry', [
      { name: 'none.example.com', path: '/none', sideEffects: 'None', rules: [rule(['configmaps'])] },
      { name: 'nodr.example.com', path: '/nodr', sideEffects: 'NoneOnDryRun', rules: [rule(['configmaps'])] },
    ]);
    await reaches('/nodr', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    wh.reviews.length = 0;
    const res = await h.req('POST', `${CMS}?dryRun=All`, configMap('dry'));
    expect(res.status).toBe(201);
    expect(wh.reviews.map((r) => [r.path, r.review.request.dryRun]).sort()).toEqual([['/nodr', true], ['/none', true]]);
    expect(wh.reviews[0].review.request.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
    expect((await h.req('GET', `${CMS}/dry`)).status).toBe(404);
  });

  it('a webhook past its timeout: Fail is a 500 naming it, Ignore lets the request through', async () => {
    wh.handle('/slow', () => new Promise((resolve) => setTimeout(() => resolve({ allowed: false }), 2500)));
    await configure(VWC, 'slow-fail', [{ name: 'slow.example.com', path: '/slow', timeoutSeconds: 1, failurePolicy: 'Fail', rules: [rule(['configmaps'])] }]);
    await reaches('/slow', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const failed = await h.req('POST', CMS, configMap('a'));
    expect(failed.status).toBe(500);
    expect(failed.body.reason).toBe('InternalError');
    expect(failed.body.message).toBe(
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${wh.url('/slow')}?timeout=1s": context deadline exceeded`,
    );
    await h.req('DELETE', `${VWC}/slow-fail`);
    configs.length = 0;
    await configure(VWC, 'slow-ignore', [{ name: 'slow.example.com', path: '/slow', timeoutSeconds: 1, failurePolicy: 'Ignore', rules: [rule(['configmaps'])] }]);
    await h.until(async () => (await h.req('POST', CMS, configMap('b'))).status === 201);
  });

  it('a webhook that is down or answers garbage fails closed or open by its failurePolicy', async () => {
    wh.handle('/garbage', () => ({ raw: 'this is not json' }));
    wh.handle('/wrong-uid', () => ({ raw: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'nope', allowed: true } }) }));
    await configure(VWC, 'broken', [
      { name: 'garbage.example.com', path: '/garbage', rules: [rule(['configmaps'])] },
      { name: 'down.example.com', path: '/down', clientConfig: { url: 'https://127.0.0.1:1/down' }, failurePolicy: 'Ignore', rules: [rule(['configmaps'])] },
    ]);
    await reaches('/garbage', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const res = await h.req('POST', CMS, configMap('a'));
    expect(res.status).toBe(500);
    expect(res.body.message).toContain('failed calling webhook "garbage.example.com": failed to call webhook: Post');
    await h.req('DELETE', `${VWC}/broken`);
    configs.length = 0;
    await configure(VWC, 'uid', [{ name: 'uid.example.com', path: '/wrong-uid', rules: [rule(['configmaps'])] }]);
    await reaches('/wrong-uid', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const wrong = await h.req('POST', CMS, configMap('b'));
    expect(wrong.status).toBe(500);
    expect(wrong.body.message).toMatch(/failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]+", got "nope"/);
  });

  it('a down webhook with failurePolicy Fail answers 500 quickly; with Ignore the write goes on', async () => {
    await configure(VWC, 'down', [{ name: 'down.example.com', path: '/down', clientConfig: { url: 'https://127.0.0.1:1/down' }, rules: [rule(['configmaps'])] }]);
    await h.until(async () => (await h.req('POST', CMS, configMap('a'))).status === 500);
    const res = await h.req('POST', CMS, configMap('a'));
    expect(res.body.message).toMatch(/^Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https:\/\/127.0.0.1:1\/down\?timeout=10s": connect ECONNREFUSED/);
  });

  it('a patch that cannot be applied is a 500 and changes nothing; a patch that makes the object invalid is refused by validation', async () => {
    wh.handle('/bad-patch', () => ({ allowed: true, ...patchOf([{ op: 'remove', path: '/metadata/labels/missing' }]) }));
    await configure(MWC, 'bad-patch', [{ name: 'badpatch.example.com', path: '/bad-patch', rules: [rule(['configmaps'])] }]);
    await reaches('/bad-patch', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const res = await h.req('POST', CMS, configMap('a'));
    expect(res.status).toBe(500);
    expect(res.body.message).toContain('admission webhook "badpatch.example.com"');
    expect((await h.req('GET', `${CMS}/a`)).status).toBe(404);

    wh.handle('/bad-patch', () => ({ allowed: true, ...patchOf([{ op: 'add', path: '/data', value: { 'bad key!': 'x' } }]) }));
    const invalid = await h.req('POST', CMS, configMap('b'));
    expect(invalid.status).toBe(422);
    expect(invalid.body.reason).toBe('Invalid');
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object', async () => {
    wh.handle('/first', (req) => (req.object.metadata.labels?.second ? { allowed: true, ...patchOf([{ op: 'add', path: '/metadata/labels/first-saw-second', value: 'yes' }]) } : { allowed: true }));
    wh.handle('/second', () => ({ allowed: true, ...patchOf([{ op: 'add', path: '/metadata/labels/second', value: 'yes' }]) }));
    await configure(MWC, 'a-first', [{ name: 'first.example.com', path: '/first', reinvocationPolicy: 'IfNeeded', rules: [rule(['configmaps'])] }]);
    await configure(MWC, 'b-second', [{ name: 'second.example.com', path: '/second', rules: [rule(['configmaps'])] }]);
    await reaches('/second', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    wh.reviews.length = 0;
    const res = await h.req('POST', CMS, configMap('a', {}, { base: 'x' }));
    expect(res.status).toBe(201);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/first', '/second', '/first']);
    expect(res.body.metadata.labels).toEqual({ base: 'x', second: 'yes', 'first-saw-second': 'yes' });
  });

  it('namespaceSelector and objectSelector pick the requests a webhook sees', async () => {
    expect((await h.req('POST', '/api/v1/namespaces', { metadata: { name: 'watched', labels: { admission: 'on' } } })).status).toBe(201);
    await configure(VWC, 'selected', [
      { name: 'ns.example.com', path: '/ns', namespaceSelector: { matchLabels: { admission: 'on' } }, rules: [rule(['configmaps'])] },
      { name: 'obj.example.com', path: '/obj', objectSelector: { matchExpressions: [{ key: 'check', operator: 'Exists' }] }, rules: [rule(['configmaps'])] },
    ]);
    await reaches('/obj', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe', {}, { check: '1' })));
    wh.reviews.length = 0;
    await h.req('POST', CMS, configMap('plain'));
    expect(wh.reviews).toEqual([]);
    await h.req('POST', CMS, configMap('labelled', {}, { check: 'yes' }));
    expect(wh.reviews.map((r) => r.path)).toEqual(['/obj']);
    wh.reviews.length = 0;
    await h.req('POST', '/api/v1/namespaces/watched/configmaps', configMap('in-watched'));
    expect(wh.reviews.map((r) => r.path)).toEqual(['/ns']);
    await h.req('DELETE', '/api/v1/namespaces/watched');
  });

  it('rules match subresources, and DELETE is sent with the old object and the DeleteOptions', async () => {
    await configure(VWC, 'ops', [
      { name: 'status.example.com', path: '/status', rules: [rule(['pods/status'], ['UPDATE'])] },
      { name: 'delete.example.com', path: '/delete', rules: [rule(['configmaps'], ['DELETE'])] },
    ]);
    expect((await h.req('POST', PODS, pod('p'))).status).toBe(201);
    await reaches('/status', () => h.req('PATCH', `${PODS}/p/status`, { status: { phase: 'Running' } }, { 'content-type': 'application/merge-patch+json' }));
    const status = wh.reviews.find((r) => r.path === '/status')!.review.request;
    expect(status).toMatchObject({ operation: 'UPDATE', subResource: 'status', requestSubResource: 'status', name: 'p' });
    expect(status.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
    expect(status.oldObject.metadata.name).toBe('p');
    // The main resource does not match a pods/status rule.
    wh.reviews.length = 0;
    await h.req('PATCH', `${PODS}/p`, { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(wh.reviews).toEqual([]);

    expect((await h.req('POST', CMS, configMap('gone'))).status).toBe(201);
    expect((await h.req('DELETE', `${CMS}/gone`, { propagationPolicy: 'Background' })).status).toBe(200);
    const del = wh.reviews.find((r) => r.path === '/delete')!.review.request;
    expect(del).toMatchObject({ operation: 'DELETE', name: 'gone', object: null });
    expect(del.oldObject.metadata.name).toBe('gone');
    expect(del.options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
  });

  it('matchPolicy Equivalent sends the object in the version the rule names; Exact does not match other versions', async () => {
    await configure(VWC, 'hpa', [
      { name: 'equivalent.example.com', path: '/equivalent', rules: [rule(['horizontalpodautoscalers'], ['CREATE'], ['autoscaling'], ['v2'])] },
      { name: 'exact.example.com', path: '/exact', matchPolicy: 'Exact', rules: [rule(['horizontalpodautoscalers'], ['CREATE'], ['autoscaling'], ['v2'])] },
    ]);
    const hpa = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    };
    await reaches('/equivalent', () => h.req('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers?dryRun=All', hpa));
    wh.reviews.length = 0;
    expect((await h.req('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', hpa)).status).toBe(201);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/equivalent']);
    const req = wh.reviews[0].review.request;
    expect(req.kind).toEqual({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
    expect(req.requestKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    expect(req.requestResource).toEqual({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });
    expect(req.object.apiVersion).toBe('autoscaling/v2');
    expect(req.object.spec.metrics[0].resource.target.averageUtilization).toBe(70);
    await h.req('DELETE', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web');
  });

  it('configuration changes take effect without a restart, and webhook configurations are never sent to webhooks', async () => {
    wh.handle('/everything', () => ({ allowed: false, status: { message: 'no' } }));
    await configure(VWC, 'everything', [{ name: 'everything.example.com', path: '/everything', rules: [rule(['*'], ['*'], ['*'], ['*'])] }]);
    await h.until(async () => (await h.req('POST', `${CMS}?dryRun=All`, configMap('x'))).status === 400);
    // Its own configuration stays editable: admission configuration is exempt.
    expect((await h.req('DELETE', `${VWC}/everything`)).status).toBe(200);
    configs.length = 0;
    await h.until(async () => (await h.req('POST', CMS, configMap('x'))).status === 201);
    expect(wh.reviews.filter((r) => r.review.request.resource.group === 'admissionregistration.k8s.io')).toEqual([]);
  });

  it('matchConditions in CEL: a false condition skips the webhook; one that fails to evaluate refuses the request (403)', async () => {
    await configure(VWC, 'conditional', [
      {
        name: 'cond.example.com',
        path: '/cond',
        rules: [rule(['configmaps'])],
        matchConditions: [
          { name: 'not-skipped', expression: "object.metadata.name != 'skip'" },
          { name: 'by-admin', expression: "request.userInfo.username != 'nobody'" },
        ],
      },
    ]);
    await reaches('/cond', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    wh.reviews.length = 0;
    expect((await h.req('POST', CMS, configMap('skip'))).status).toBe(201);
    expect(wh.reviews).toEqual([]);
    expect((await h.req('POST', CMS, configMap('seen'))).status).toBe(201);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/cond']);

    const bad = await h.req('POST', VWC, {
      metadata: { name: 'bad-condition' },
      webhooks: [{ name: 'bad.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url: wh.url('/x'), caBundle }, rules: [rule(['configmaps'])], matchConditions: [{ name: 'c', expression: 'object.metadata.name' }] }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0]).toMatchObject({ field: 'webhooks[0].matchConditions[0].expression' });
    expect(bad.body.details.causes[0].message).toContain('must evaluate to bool');

    await configure(VWC, 'erroring', [
      { name: 'err.example.com', path: '/err', rules: [rule(['configmaps'])], matchConditions: [{ name: 'needs-data', expression: "object.data.missing == 'x'" }] },
    ]);
    const refused = await h.until(async () => {
      const res = await h.req('POST', `${CMS}?dryRun=All`, configMap('e', { other: 'y' }));
      return res.status === 403 && res;
    });
    expect(refused.body.message).toContain('configmaps "e" is forbidden:');
    expect(refused.body.message).toContain("no such key: missing");
  });

  it('an eviction is admitted as kube admits it: CREATE of pods/eviction with the Eviction; the delete it makes is not sent again', async () => {
    wh.handle('/evict', (req) => (req.object.metadata.name === 'keep' ? { allowed: false, status: { message: 'keep stays' } } : { allowed: true }));
    await configure(VWC, 'evictions', [
      { name: 'evict.example.com', path: '/evict', rules: [rule(['pods/eviction'], ['CREATE'])] },
      { name: 'pod-delete.example.com', path: '/pod-delete', rules: [rule(['pods'], ['DELETE'])] },
    ]);
    expect((await h.req('POST', PODS, pod('keep'))).status).toBe(201);
    expect((await h.req('POST', PODS, pod('go'))).status).toBe(201);
    const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });
    // Probing with a pod that does not exist: admission judges the eviction before it is carried out (404 then).
    await reaches('/evict', () => h.req('POST', `${PODS}/ghost/eviction`, eviction('ghost')));
    const refused = await h.req('POST', `${PODS}/keep/eviction`, eviction('keep'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('admission webhook "evict.example.com" denied the request: keep stays');
    expect((await h.req('GET', `${PODS}/keep`)).status).toBe(200);

    wh.reviews.length = 0;
    expect((await h.req('POST', `${PODS}/go/eviction`, eviction('go'))).status).toBe(201);
    expect((await h.req('GET', `${PODS}/go`)).status).toBe(404);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/evict']);
    const req = wh.reviews[0].review.request;
    expect(req).toMatchObject({
      operation: 'CREATE',
      kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'eviction',
      requestKind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      name: 'go',
      namespace: 'default',
    });
    expect(req.object.kind).toBe('Eviction');
  });

  it('reinvocation as kube\'s reinvocation context: two IfNeeded webhooks that both change the object are called A, B, A, B', async () => {
    let n = 0;
    const bump = (who: string) => () => ({ allowed: true, ...patchOf([{ op: 'add', path: `/metadata/annotations`, value: { [`${who}`]: String(++n) } }]) });
    wh.handle('/ra', bump('a'));
    wh.handle('/rb', bump('b'));
    await configure(MWC, 'r', [
      { name: 'a.example.com', path: '/ra', reinvocationPolicy: 'IfNeeded', rules: [rule(['configmaps'])] },
      { name: 'b.example.com', path: '/rb', reinvocationPolicy: 'IfNeeded', rules: [rule(['configmaps'])] },
    ]);
    await reaches('/rb', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    wh.reviews.length = 0;
    expect((await h.req('POST', CMS, configMap('r'))).status).toBe(201);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/ra', '/rb', '/ra', '/rb']);
  });

  it('a match condition that fails to evaluate skips a webhook whose failurePolicy is Ignore', async () => {
    await configure(VWC, 'ignore-cond', [
      { name: 'ig.example.com', path: '/ig', failurePolicy: 'Ignore', rules: [rule(['configmaps'])], matchConditions: [{ name: 'boom', expression: "object.data.missing == 'x'" }] },
      { name: 'seen.example.com', path: '/seen', rules: [rule(['configmaps'])] },
    ]);
    await reaches('/seen', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    wh.reviews.length = 0;
    expect((await h.req('POST', CMS, configMap('c', { other: 'y' }))).status).toBe(201);
    expect(wh.reviews.map((r) => r.path)).toEqual(['/seen']);
  });

  it('a webhook slower than the request\'s own timeout: 504, told the time left, and nothing is stored', async () => {
    wh.handle('/sleepy', () => new Promise((resolve) => setTimeout(() => resolve({ allowed: true }), 2500)));
    await configure(VWC, 'sleepy', [{ name: 'sleepy.example.com', path: '/sleepy', failurePolicy: 'Ignore', rules: [rule(['configmaps'])] }]);
    await reaches('/sleepy', () => h.req('POST', `${CMS}?dryRun=All&timeout=1s`, configMap('probe')));
    const res = await h.req('POST', `${CMS}?timeout=1s`, configMap('late'));
    expect(res.status).toBe(504);
    await new Promise((r) => setTimeout(r, 2000));
    expect((await h.req('GET', `${CMS}/late`)).status).toBe(404);
    const asked = wh.reviews.filter((r) => r.path === '/sleepy').map((r) => r.review.request.name);
    expect(asked).toContain('late');
  });

  it('answers Go would not decode are failures to call the webhook, never passed on to the client', async () => {
    const answers: Record<string, unknown> = {
      '/msg-object': { allowed: false, status: { message: { nested: true } } },
      '/causes-string': { allowed: false, status: { message: 'no', details: { causes: 'nope' } } },
      '/bad-base64': { allowed: true, patchType: 'JSONPatch', patch: `${Buffer.from('[]').toString('base64')}@@@` },
    };
    for (const [path, answer] of Object.entries(answers)) wh.handle(path, () => answer as Record<string, unknown>);
    for (const [i, path] of Object.keys(answers).entries()) {
      const collection = path === '/bad-base64' ? MWC : VWC;
      await configure(collection, `strict-${i}`, [{ name: `strict${i}.example.com`, path, rules: [rule(['configmaps'])] }]);
      const res = await h.until(async () => {
        const r = await h.req('POST', `${CMS}?dryRun=All`, configMap('x'));
        return r.status === 500 && String(r.body.message).includes(`strict${i}.example.com`) && r;
      });
      expect(res.body.message).toContain(`failed calling webhook "strict${i}.example.com": received invalid webhook response:`);
      await h.req('DELETE', `${collection}/strict-${i}`);
    }
    configs.length = 0;
  });

  it('warnings past kube\'s limit are cut as kube cuts them, and ones with control characters dropped', async () => {
    wh.handle('/noisy', () => ({ allowed: true, warnings: ['has\nnewline', ...Array.from({ length: 1000 }, (_, i) => `warning ${i} `.padEnd(120, 'x'))] }));
    await configure(VWC, 'noisy', [{ name: 'noisy.example.com', path: '/noisy', rules: [rule(['configmaps'])] }]);
    const res = await h.until(async () => {
      const r = await h.req('POST', `${CMS}?dryRun=All`, configMap('n'));
      return r.headers.get('warning') ? r : undefined;
    });
    const header = res.headers.get('warning')!;
    expect(header).not.toContain('newline');
    expect(header.length).toBeLessThan(6000);
    expect(header.startsWith('299 - "warning 0 ')).toBe(true);
  });

  it('scale: webhooks see an autoscaling/v1 Scale and can change only the replicas; TokenReviews are admitted too', async () => {
    wh.handle('/scale', () => ({ allowed: true, ...patchOf([{ op: 'replace', path: '/spec/replicas', value: 2 }, { op: 'add', path: '/metadata/labels', value: { sneaky: 'yes' } }]) }));
    await configure(MWC, 'scale', [{ name: 'scale.example.com', path: '/scale', rules: [rule(['deployments/scale'], ['UPDATE'], ['apps'], ['v1'])] }]);
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } } },
    };
    expect((await h.req('POST', '/apis/apps/v1/namespaces/default/deployments', dep)).status).toBe(201);
    const scaled = await h.until(async () => {
      const r = await h.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { spec: { replicas: 5 } }, { 'content-type': 'application/merge-patch+json' });
      return r.body.spec?.replicas === 2 && r;
    });
    expect(scaled.body.kind).toBe('Scale');
    const review = wh.reviews.filter((r) => r.path === '/scale').at(-1)!.review.request;
    expect(review).toMatchObject({ operation: 'UPDATE', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, resource: { group: 'apps', version: 'v1', resource: 'deployments' }, subResource: 'scale' });
    expect(review.object.kind).toBe('Scale');
    expect(review.oldObject.kind).toBe('Scale');
    const got = await h.req('GET', '/apis/apps/v1/namespaces/default/deployments/web');
    expect(got.body.spec.replicas).toBe(2);
    expect(got.body.metadata.labels).toEqual({ app: 'web' });
    await h.req('DELETE', '/apis/apps/v1/namespaces/default/deployments/web');

    wh.handle('/reviews', () => ({ allowed: false, status: { message: 'no reviews today' } }));
    await configure(VWC, 'reviews', [{ name: 'reviews.example.com', path: '/reviews', rules: [rule(['tokenreviews', 'subjectaccessreviews'], ['CREATE'], ['authentication.k8s.io', 'authorization.k8s.io'])] }]);
    const review2 = await h.until(async () => {
      const r = await h.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'x' } });
      return r.status === 400 && r;
    });
    expect(review2.body.message).toBe('admission webhook "reviews.example.com" denied the request: no reviews today');
  });

  it('a webhook reached through a Service: an ExternalName Service to localhost, its TLS name <service>.<namespace>.svc', async () => {
    expect((await h.req('POST', '/api/v1/namespaces/default/services', { metadata: { name: 'hooksvc' }, spec: { type: 'ExternalName', externalName: 'localhost' } })).status).toBe(201);
    wh.handle('/via-service', () => ({ allowed: false, status: { message: 'seen through the service' } }));
    await configure(VWC, 'via-service', [
      { name: 'svc.example.com', path: '/unused', clientConfig: { url: undefined, service: { namespace: 'default', name: 'hooksvc', path: '/via-service', port: wh.port } }, rules: [rule(['configmaps'])] },
    ]);
    const res = await h.until(async () => {
      const r = await h.req('POST', `${CMS}?dryRun=All`, configMap('s'));
      return r.status === 400 && r;
    });
    expect(res.body.message).toBe('admission webhook "svc.example.com" denied the request: seen through the service');
    await h.req('DELETE', '/api/v1/namespaces/default/services/hooksvc');
  });

  it('a slow webhook holds only the requests it matches', async () => {
    wh.handle('/slow-cm', () => new Promise((resolve) => setTimeout(() => resolve({ allowed: true }), 1500)));
    await configure(VWC, 'slow-cm', [{ name: 'slowcm.example.com', path: '/slow-cm', rules: [rule(['configmaps'])] }]);
    await reaches('/slow-cm', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    const finished: string[] = [];
    const slow = h.req('POST', CMS, configMap('slow')).then((r) => finished.push(`configmap ${r.status}`));
    const fast = h.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 'fast' }, stringData: { a: 'b' } }).then((r) => finished.push(`secret ${r.status}`));
    await Promise.all([slow, fast]);
    expect(finished).toEqual(['secret 201', 'configmap 201']);
    await h.req('DELETE', '/api/v1/namespaces/default/secrets/fast');
  });

  it('audit annotations and metrics: a webhook\'s auditAnnotations and the mutation record reach the audit event; calls are counted', async () => {
    wh.handle('/annotate', () => ({ allowed: true, auditAnnotations: { checked: 'yes' } }));
    wh.handle('/mutate-audit', () => ({ allowed: true, ...patchOf([{ op: 'add', path: '/metadata/labels', value: { m: 'y' } }]) }));
    await configure(VWC, 'annotate', [{ name: 'annotate.example.com', path: '/annotate', rules: [rule(['configmaps'])] }]);
    await configure(MWC, 'mutate-audit', [{ name: 'mutaudit.example.com', path: '/mutate-audit', rules: [rule(['configmaps'])] }]);
    await reaches('/annotate', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    await reaches('/mutate-audit', () => h.req('POST', `${CMS}?dryRun=All`, configMap('probe')));
    h.auditLines.length = 0;
    expect((await h.req('POST', CMS, configMap('audited'))).status).toBe(201);
    const events = h.auditLines.map((l) => JSON.parse(l)).filter((e) => e.objectRef?.name === 'audited' || e.requestURI?.endsWith('/configmaps'));
    const annotations = Object.assign({}, ...events.map((e) => e.annotations ?? {}));
    expect(annotations['annotate.example.com/checked']).toBe('yes');
    const mutation = Object.entries(annotations).find(([k]) => k.startsWith('mutation.webhook.admission.k8s.io/round_0_index_'));
    expect(JSON.parse(String(mutation?.[1]))).toEqual({ configuration: 'mutate-audit', webhook: 'mutaudit.example.com', mutated: true });
    const metrics = await (await h.server.fetch(new Request('http://kapi.test/metrics'))).text();
    expect(metrics).toMatch(/apiserver_admission_webhook_request_total\{name="annotate.example.com",type="validating",operation="CREATE",code="200",rejected="false"\} \d+/);
    expect(metrics).toMatch(/apiserver_admission_webhook_admission_duration_seconds_count\{name="mutaudit.example.com",type="admit",operation="CREATE",rejected="false"\} \d+/);
  });
});
