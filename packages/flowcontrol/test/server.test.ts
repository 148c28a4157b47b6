import { group as core } from '@kapi/api-core';
import { createApiServer, groupPlugin, tokenFileAuthenticator, type AdmissionPlugin, type ApiServer, type GroupPlugin, type RequestLimits } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOW_SCHEMA_UID_HEADER, flowControlGroup, PRIORITY_LEVEL_UID_HEADER, priorityAndFairness } from '../src/index.js';

const TOKENS = 'admin-token,admin,1,"system:masters"\nflood-token,flood,2\nvictim-token,victim,3\n';
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';

/** Holds the creates of user `flood` in admission until the test lets them go, one at a time or all. */
function floodGate() {
  const held: (() => void)[] = [];
  let arrivals = 0;
  let open = false;
  const plugin: AdmissionPlugin = {
    name: 'HoldFlood',
    operations: ['CREATE'],
    async validate(attrs) {
      if (attrs.user.username !== 'flood') return;
      arrivals++;
      if (open) return;
      await new Promise<void>((resolve) => held.push(resolve));
    },
  };
  return {
    plugin,
    arrivals: () => arrivals,
    releaseOne: () => held.shift()?.(),
    releaseAll: () => held.splice(0).forEach((resolve) => resolve()),
    /** Holds nothing from now on. */
    open() {
      open = true;
      held.splice(0).forEach((resolve) => resolve());
    },
  };
}

let server: ApiServer | undefined;
let gate: ReturnType<typeof floodGate>;
afterEach(async () => {
  gate?.open();
  await server?.stop();
  server = undefined;
});

async function start(limits: RequestLimits = {}, plugin: GroupPlugin = priorityAndFairness()) {
  gate = floodGate();
  server = createApiServer({
    storage: createMemoryBackend(),
    plugins: [groupPlugin(core), plugin],
    authenticators: [tokenFileAuthenticator(TOKENS)],
    admission: [gate.plugin],
    limits,
  });
  await server.start();
}

async function req(token: string, method: string, path: string, body?: unknown, signal?: AbortSignal) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await server!.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}
const admin = (method: string, path: string, body?: unknown) => req('admin-token', method, path, body);
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

const uidOf = async (resource: string, name: string) => (await admin('GET', `${FC}/${resource}/${name}`)).body.metadata.uid as string;

describe('API Priority and Fairness in a server', () => {
  it("keeps kube's bootstrap configuration and reports what each request matched in X-Kubernetes-PF-* headers", async () => {
    await start();
    const schemas = (await admin('GET', `${FC}/flowschemas`)).body.items.map((s: { metadata: { name: string } }) => s.metadata.name);
    expect(schemas).toEqual(expect.arrayContaining(['exempt', 'probes', 'global-default', 'catch-all', 'service-accounts', 'system-nodes']));
    const levels = (await admin('GET', `${FC}/prioritylevelconfigurations`)).body.items.map((s: { metadata: { name: string } }) => s.metadata.name);
    expect(levels.sort()).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);

    const asVictim = await req('victim-token', 'GET', '/api/v1/namespaces/default/configmaps');
    expect(asVictim.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(await uidOf('flowschemas', 'global-default'));
    expect(asVictim.headers.get(PRIORITY_LEVEL_UID_HEADER)).toBe(await uidOf('prioritylevelconfigurations', 'global-default'));
    const asAdmin = await admin('GET', '/api/v1/namespaces');
    expect(asAdmin.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(await uidOf('flowschemas', 'exempt'));
    const probe = await server!.fetch(new Request('http://kapi.test/readyz'));
    expect(probe.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(await uidOf('flowschemas', 'probes'));
    // Errors carry them too.
    const missing = await req('victim-token', 'GET', '/api/v1/namespaces/default/configmaps/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(await uidOf('flowschemas', 'global-default'));
  });

  it("queues a flood from one user without starving another user's requests", async () => {
    // 2 seats for the server: global-default gets ceil(2 × 20 / 245) = 1.
    await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    expect((await admin('POST', '/api/v1/namespaces/default/configmaps', configMap('shared'))).status).toBe(201);
    const flood = Array.from({ length: 30 }, (_, i) => req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap(`flood-${i}`)));
    await eventually(async () => (gate.arrivals() === 1 ? true : undefined), 'the first flood request runs');
    const metrics = (await admin('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/apiserver_flowcontrol_current_inqueue_requests\{flow_schema="global-default",priority_level="global-default"\} 29/);

    let done = 0;
    const victim = Array.from({ length: 5 }, () => req('victim-token', 'GET', '/api/v1/namespaces/default/configmaps/shared').finally(() => done++));
    let released = 0;
    while (done < 5) {
      // Each flood request holds the seat 100 ms: seats are shared by seat-seconds, and the victim's quick GETs
      // have used far less of them.
      await new Promise((resolve) => setTimeout(resolve, 100));
      gate.releaseOne();
      released++;
      await eventually(async () => (gate.arrivals() > released || done === 5 ? true : undefined), 'the next request runs');
      await turn();
    }
    expect((await Promise.all(victim)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // The victim's requests waited only for the flood requests at the heads of the flood's queues (the flow uses its
    // hand of six queues), which had arrived before them, not for the 29 queued (6 in runs here, on an idle machine and under load).
    expect(released).toBeLessThanOrEqual(10);
    gate.open();
    expect((await Promise.all(flood)).every((r) => r.status === 201)).toBe(true);
  });

  it('applies FlowSchemas and PriorityLevelConfigurations created through the API; a full queue is 429 with Retry-After', async () => {
    await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    const level = await admin('POST', `${FC}/prioritylevelconfigurations`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'tiny' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 2 } } } },
    });
    expect(level.status).toBe(201);
    const schema = await admin('POST', `${FC}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'flooders' },
      spec: {
        priorityLevelConfiguration: { name: 'tiny' },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'flood' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
      },
    });
    expect(schema.status).toBe(201);
    const uid = schema.body.metadata.uid;
    await eventually(async () => ((await req('flood-token', 'GET', '/api/v1/namespaces/default/configmaps')).headers.get(FLOW_SCHEMA_UID_HEADER) === uid ? true : undefined), 'the new schema classifies');

    // One runs, two wait in the only queue, three are turned away.
    const flood = Array.from({ length: 6 }, (_, i) => req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap(`f-${i}`)));
    const rejected = await Promise.all(flood.slice(3));
    for (const r of rejected) {
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(uid);
      expect(r.headers.get(PRIORITY_LEVEL_UID_HEADER)).toBe(level.body.metadata.uid);
    }
    // Another user is not in that level.
    expect((await req('victim-token', 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
    // kube's dumps of the queue and of the two requests waiting in it.
    const queues = ((await admin('GET', '/debug/api_priority_and_fairness/dump_queues')).body as string).trimEnd().split('\n');
    expect(queues[0].split(/,\s*/)).toEqual(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']);
    const tiny = queues.filter((l) => l.startsWith('tiny,')).map((l) => l.split(/,\s*/));
    expect(tiny).toHaveLength(1);
    expect(tiny[0].slice(0, 5)).toEqual(['tiny', '0', '2', '1', '1']);
    expect(tiny[0][5]).toMatch(/^\d+\.\d{8}ss$/);
    expect(tiny[0].slice(6)).toEqual(['2', '2', '6.00000000ss']);
    const requests = ((await admin('GET', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1')).body as string).trimEnd().split('\n');
    expect(requests[0].split(/,\s*/)).toEqual([
      'PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency',
      'UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource',
    ]);
    const waiting = requests.slice(1).map((l) => l.split(/,\s*/));
    expect(waiting.map((r) => [...r.slice(0, 5), ...r.slice(6)])).toEqual(
      [0, 1].map((i) => ['tiny', 'flooders', '0', String(i), 'flood', '1', '0', '0s', 'flood', 'create', '/api/v1/namespaces/default/configmaps', 'default', '', 'v1', 'configmaps', '']),
    );
    expect(waiting[0][5]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    for (let i = 0; i < 3; i++) {
      await eventually(async () => (gate.arrivals() > i ? true : undefined), 'a queued request runs');
      gate.releaseOne();
    }
    expect((await Promise.all(flood.slice(0, 3))).map((r) => r.status)).toEqual([201, 201, 201]);
    const metrics = (await admin('GET', '/metrics')).body as string;
    expect(metrics).toContain('apiserver_flowcontrol_rejected_requests_total{flow_schema="flooders",priority_level="tiny",reason="queue-full"} 3');
    // kube's debug dump shows the same (RBAC lets only cluster-admin read it: the e2e test checks that).
    const dump = (await admin('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).body as string;
    const lines = dump.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests',
    );
    expect(lines.find((l) => l.startsWith('tiny,'))?.split(/,\s*/)).toEqual(['tiny', '0', 'true', 'false', '0', '0', '4', '3', '0', '0']);
    expect(lines.map((l) => l.split(',')[0])).toEqual(['PriorityLevelName', 'catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'tiny', 'workload-high', 'workload-low']);
  });

  it('estimates a write by the watches it notifies (final seats), forgetting watches that ended; the metrics show both', async () => {
    await start();
    const metric = async (pattern: RegExp) => Number(pattern.exec((await admin('GET', '/metrics')).body as string)?.[1] ?? NaN);
    const labels = 'flow_schema="global-default",priority_level="global-default"';
    // 25 watches of the namespace's ConfigMaps (by cluster-admin, exempt: every watch counts), open until cancelled.
    const watches = await Promise.all(
      Array.from({ length: 25 }, async () => {
        const res = await server!.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps?watch=1', { headers: { authorization: 'Bearer admin-token' } }));
        expect(res.status).toBe(200);
        return res.body!;
      }),
    );
    gate.open();
    expect((await req('victim-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('watched'))).status).toBe(201);
    // 25 watches: three final seats (kube's ceil(25 / 10)), so the write's estimate is 3 seats.
    expect(await metric(new RegExp(`apiserver_flowcontrol_watch_count_samples_bucket\\{le="10",${labels}\\} (\\d+)`))).toBe(0);
    expect(await metric(new RegExp(`apiserver_flowcontrol_watch_count_samples_bucket\\{le="100",${labels}\\} (\\d+)`))).toBe(1);
    expect(await metric(new RegExp(`apiserver_flowcontrol_work_estimated_seats_bucket\\{le="2",${labels}\\} (\\d+)`))).toBe(0);
    expect(await metric(new RegExp(`apiserver_flowcontrol_work_estimated_seats_bucket\\{le="4",${labels}\\} (\\d+)`))).toBe(1);
    // The clients leave; their watches no longer count.
    await Promise.all(watches.map((body) => body.cancel()));
    expect((await req('victim-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('unwatched'))).status).toBe(201);
    expect(await metric(new RegExp(`apiserver_flowcontrol_watch_count_samples_bucket\\{le="0",${labels}\\} (\\d+)`))).toBe(1);
    expect(await metric(new RegExp(`apiserver_flowcontrol_work_estimated_seats_bucket\\{le="1",${labels}\\} (\\d+)`))).toBeGreaterThanOrEqual(1);
    // Execution times, regular requests and watches apart (a watch's is until its stream began).
    expect(await metric(new RegExp(`apiserver_flowcontrol_request_execution_seconds_count\\{${labels},type="regular"\\} (\\d+)`))).toBeGreaterThanOrEqual(2);
    expect(await metric(/apiserver_flowcontrol_request_execution_seconds_count\{flow_schema="exempt",priority_level="exempt",type="watch"\} (\d+)/)).toBe(25);
  });

  it('turns away a request that waited a quarter of its deadline (time-out); system:masters is never held up', async () => {
    await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1, requestTimeoutMs: 400 });
    const first = req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('first'));
    await eventually(async () => (gate.arrivals() === 1 ? true : undefined), 'the first request runs');
    const second = await req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('second'));
    expect(second.status).toBe(429);
    // kube reports what runs under APF as under the in-flight limits.
    expect((await admin('GET', '/metrics')).body).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 1');
    expect(gate.arrivals()).toBe(1);
    expect((await admin('POST', '/api/v1/namespaces/default/configmaps', configMap('admin'))).status).toBe(201);
    gate.releaseOne();
    expect((await first).status).toBe(201);
    const metrics = (await admin('GET', '/metrics')).body as string;
    expect(metrics).toContain('apiserver_flowcontrol_rejected_requests_total{flow_schema="global-default",priority_level="global-default",reason="time-out"} 1');

  });

  it('takes a request whose client went away out of its queue (cancelled)', async () => {
    await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 });
    const first = req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('first'));
    await eventually(async () => (gate.arrivals() === 1 ? true : undefined), 'the first request runs');
    const client = new AbortController();
    const leaving = req('victim-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('leaving'), client.signal);
    const waiting = 'apiserver_flowcontrol_current_inqueue_requests{flow_schema="global-default",priority_level="global-default"} 1';
    await eventually(async () => (((await admin('GET', '/metrics')).body as string).includes(waiting) ? true : undefined), 'the request waits');
    client.abort();
    expect((await leaving).status).toBe(429);
    const metrics = (await admin('GET', '/metrics')).body as string;
    expect(metrics).toContain('apiserver_flowcontrol_rejected_requests_total{flow_schema="global-default",priority_level="global-default",reason="cancelled"} 1');
    expect(metrics).toContain('apiserver_flowcontrol_current_inqueue_requests{flow_schema="global-default",priority_level="global-default"} 0');
    gate.releaseOne();
    expect((await first).status).toBe(201);
    // The one that left was never created.
    expect((await admin('GET', '/api/v1/namespaces/default/configmaps/leaving')).status).toBe(404);
  });

  it('lends idle levels\' seats to a busy one: more of a held flood runs than the level\'s own seats', async () => {
    // 20 seats for the server: global-default's own are ceil(20 × 20 / 245) = 2.
    await start({ maxRequestsInflight: 10, maxMutatingRequestsInflight: 10 }, priorityAndFairness({ borrowingPeriodMs: 50 }));
    const flood = Array.from({ length: 10 }, (_, i) => req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap(`b-${i}`)));
    // At least the level's own two run at once (on a slow machine the borrowing period may already have let more in).
    await eventually(async () => (gate.arrivals() >= 2 ? true : undefined), 'two run');
    const before = (await admin('GET', '/metrics')).body as string;
    expect(before).toContain('apiserver_flowcontrol_nominal_limit_seats{priority_level="global-default"} 2');
    // After a borrowing period, the other levels' idle seats let the rest run.
    await eventually(async () => (gate.arrivals() === 10 ? true : undefined), 'all ten run');
    const after = (await admin('GET', '/metrics')).body as string;
    const limit = Number(/apiserver_flowcontrol_current_limit_seats\{priority_level="global-default"\} (\d+)/.exec(after)?.[1]);
    expect(limit).toBeGreaterThanOrEqual(10);
    gate.open();
    expect((await Promise.all(flood)).map((r) => r.status)).toEqual(Array(10).fill(201));
  });

  it('puts back a deleted or changed mandatory object and marks a schema whose level is missing as Dangling', async () => {
    await start();
    const before = await uidOf('flowschemas', 'catch-all');
    expect((await admin('DELETE', `${FC}/flowschemas/catch-all`)).status).toBe(200);
    const after = await eventually(async () => {
      const got = await admin('GET', `${FC}/flowschemas/catch-all`);
      return got.status === 200 ? got.body : undefined;
    }, 'catch-all is back');
    expect(after.metadata.uid).not.toBe(before);
    expect(after.spec.matchingPrecedence).toBe(10000);
    // A changed one too.
    const patched = await server!.fetch(
      new Request(`http://kapi.test${FC}/prioritylevelconfigurations/catch-all`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer admin-token', 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { limited: { nominalConcurrencyShares: 50 } } }),
      }),
    );
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { spec: { limited: { nominalConcurrencyShares: number } } }).spec.limited.nominalConcurrencyShares).toBe(50);
    await eventually(async () => {
      const got = await admin('GET', `${FC}/prioritylevelconfigurations/catch-all`);
      return got.body.spec.limited.nominalConcurrencyShares === 5 ? true : undefined;
    }, 'catch-all has its mandated shares again');

    const lost = await admin('POST', `${FC}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'lost' },
      spec: { priorityLevelConfiguration: { name: 'nowhere' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
    });
    expect(lost.status).toBe(201);
    // matchingPrecedence defaults to 1000.
    expect(lost.body.spec.matchingPrecedence).toBe(1000);
    const condition = await eventually(async () => {
      const got = await admin('GET', `${FC}/flowschemas/lost`);
      return got.body.status?.conditions?.find((c: { type: string }) => c.type === 'Dangling');
    }, 'the Dangling condition is set');
    expect(condition).toMatchObject({ status: 'True', reason: 'NotFound' });
    // A schema without its level classifies nothing: the victim stays in global-default.
    const res = await req('victim-token', 'GET', '/version');
    expect(res.headers.get(FLOW_SCHEMA_UID_HEADER)).toBe(await uidOf('flowschemas', 'global-default'));
  });

  it('serves a level of 50 million queues (valid: 51 bits of hand entropy) without making them', async () => {
    await start();
    const level = await admin('POST', `${FC}/prioritylevelconfigurations`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'huge' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Queue', queuing: { queues: 50_000_000, handSize: 2, queueLengthLimit: 5 } } } },
    });
    expect(level.status).toBe(201);
    const schema = await admin('POST', `${FC}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'huge' },
      spec: { priorityLevelConfiguration: { name: 'huge' }, matchingPrecedence: 500, rules: [{ subjects: [{ kind: 'User', user: { name: 'flood' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
    });
    await eventually(async () => ((await req('flood-token', 'GET', '/version')).headers.get(FLOW_SCHEMA_UID_HEADER) === schema.body.metadata.uid ? true : undefined), 'the schema classifies');
    const answers = await Promise.all(Array.from({ length: 20 }, () => req('flood-token', 'GET', '/version')));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
  });

  it('refuses invalid configuration objects with kube field errors', async () => {
    await start();
    const level = await admin('POST', `${FC}/prioritylevelconfigurations`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'bad' },
      spec: { type: 'Limited', limited: { lendablePercent: 101, limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 4 } } } },
    });
    expect(level.status).toBe(422);
    expect(level.body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual(['spec.limited.lendablePercent', 'spec.limited.limitResponse.queuing.handSize']);
    const schema = await admin('POST', `${FC}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'bad' },
      spec: { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 20000, rules: [{ subjects: [], resourceRules: [{ verbs: ['get', '*'], apiGroups: [''], resources: ['pods'] }] }] },
    });
    expect(schema.status).toBe(422);
    expect(schema.body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual([
      'spec.matchingPrecedence',
      'spec.rules[0].resourceRules[0].namespaces',
      'spec.rules[0].resourceRules[0].verbs',
      'spec.rules[0].subjects',
    ]);
    const exempt = await admin('PUT', `${FC}/prioritylevelconfigurations/exempt`, {
      ...(await admin('GET', `${FC}/prioritylevelconfigurations/exempt`)).body,
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } },
    });
    expect(exempt.status).toBe(422);
  });

  it('with Priority and Fairness off, serves the group but gates nothing (the in-flight limits apply)', async () => {
    await start({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }, flowControlGroup());
    const res = await req('victim-token', 'GET', `${FC}/flowschemas`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
    expect(res.headers.get(FLOW_SCHEMA_UID_HEADER)).toBeNull();
    const first = req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('first'));
    await eventually(async () => (gate.arrivals() === 1 ? true : undefined), 'the first request runs');
    expect((await req('flood-token', 'POST', '/api/v1/namespaces/default/configmaps', configMap('second'))).status).toBe(429);
    gate.releaseOne();
    expect((await first).status).toBe(201);
  });
});
