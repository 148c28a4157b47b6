import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { kubectlBinaries, kubectlRunner } from '../src/kubectl.js';
import { freePort, startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const kubectlPath = kubectlBinaries()[0]?.path;

const dir = mkdtempSync(join(tmpdir(), 'kapi-apf-'));
const tokens = join(dir, 'tokens.csv');
writeFileSync(tokens, 'flood-token,flood,uid-flood\nvictim-token,victim,uid-victim\nloader-token,loader,uid-loader,"system:masters"\n');

/** A server with two ordinary users who may read ConfigMaps in `default`, reachable over plain HTTP by token. */
async function startWithUsers(extraArgs: string[]) {
  const http = await freePort();
  const server = await startServerProcess([`--token-auth-file=${tokens}`, `--insecure-port=${http}`, ...extraArgs]);
  const base = `http://127.0.0.1:${http}`;
  const as = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) } });
  const admin = kubectlRunner(kubectlPath!, server.kubeconfig);
  expect(admin('create', 'rolebinding', 'readers', '--clusterrole=view', '--user=flood', '--user=victim', '-n', 'default').status).toBe(0);
  // Enough ConfigMaps that a list of them is written in slices (more than 1,000 items), holding its seat meanwhile.
  for (let i = 0; i < 1500; i += 50) {
    const batch = Array.from({ length: 50 }, (_, j) =>
      as('loader-token', '/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + j}` }, data: { v: 'x'.repeat(100) } }),
      }).then((res) => res.status),
    );
    expect(new Set(await Promise.all(batch))).toEqual(new Set([201]));
  }
  return { server, as, admin };
}

/**
 * The issue-16 attack with ordinary rights: `flood` keeps 60 LISTs in flight, sending the next as each returns,
 * while `victim` reads one ConfigMap 20 times in a row. Returns the victim's status codes and how many of the
 * flood's requests were answered while the victim worked.
 */
async function floodAndVictim(as: (token: string, path: string) => Promise<Response>) {
  let victimDone = false;
  let flooded = 0;
  const floodStatuses = new Map<number, number>();
  const worker = async () => {
    while (!victimDone) {
      const res = await as('flood-token', '/api/v1/namespaces/default/configmaps');
      await res.arrayBuffer();
      flooded++;
      floodStatuses.set(res.status, (floodStatuses.get(res.status) ?? 0) + 1);
    }
  };
  const workers = Array.from({ length: 60 }, worker);
  // The flood is under way before the victim starts.
  while (flooded < 60) await new Promise((resolve) => setTimeout(resolve, 5));
  const victim: number[] = [];
  const before = flooded;
  for (let i = 0; i < 20; i++) {
    const res = await as('victim-token', '/api/v1/namespaces/default/configmaps/cm-1');
    await res.arrayBuffer();
    victim.push(res.status);
  }
  const during = flooded - before;
  victimDone = true;
  await Promise.all(workers);
  return { victim, during, floodStatuses };
}

describe.skipIf(!kubectlPath)('API Priority and Fairness with real clients', () => {
  let server: ServerProcess;
  let as: Awaited<ReturnType<typeof startWithUsers>>['as'];
  let admin: Awaited<ReturnType<typeof startWithUsers>>['admin'];
  beforeAll(async () => {
    // Two seats in all: the global-default level (ordinary users) gets one.
    ({ server, as, admin } = await startWithUsers(['--max-requests-inflight=1', '--max-mutating-requests-inflight=1']));
  }, 60_000);
  afterAll(async () => server?.stop());

  it("kubectl lists kube's bootstrap FlowSchemas and PriorityLevelConfigurations with kube's columns", () => {
    const schemas = admin('get', 'flowschemas');
    expect(schemas.status).toBe(0);
    expect(schemas.stdout.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    expect(schemas.stdout).toMatch(/\nexempt\s+exempt\s+1\s+\S+\s+False\n/);
    expect(schemas.stdout).toMatch(/\nglobal-default\s+global-default\s+9900\s+ByUser\s+\S+\s+False\n/);
    const levels = admin('get', 'prioritylevelconfigurations');
    expect(levels.stdout).toMatch(/\nworkload-low\s+Limited\s+100\s+128\s+6\s+50\s+\S+\n/);
    expect(admin('get', 'flowschema', 'probes', '-o', 'jsonpath={.spec.priorityLevelConfiguration.name}').stdout).toBe('exempt');
    // kube's debug dump, for cluster-admin; ordinary users get 403.
    const dump = admin('get', '--raw', '/debug/api_priority_and_fairness/dump_priority_levels');
    expect(dump.stdout.split('\n')[0]).toMatch(/^PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests,/);
    expect(dump.stdout).toMatch(/\nglobal-default, +\d+, +(true|false), +false,/);
    // Its queues: every queue of every limited level (global-default has 128), R in seat-seconds.
    const queues = admin('get', '--raw', '/debug/api_priority_and_fairness/dump_queues');
    expect(queues.stdout.split('\n')[0].split(/,\s*/)).toEqual(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']);
    expect(queues.stdout.split('\n').filter((l) => l.startsWith('global-default,'))).toHaveLength(128);
    expect(queues.stdout).toMatch(/\nworkload-low, +127, +\d+, +\d+, +\d+, +\d+\.\d{8}ss, +\d+, +\d+, +\d+\.\d{8}ss\n/);
    const requests = admin('get', '--raw', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1');
    expect(requests.stdout.split('\n')[0].split(/,\s+/)).toEqual([
      'PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency',
      'UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource',
    ]);
  });

  it('refuses the debug dumps to users RBAC does not let read them', async () => {
    for (const dump of ['dump_priority_levels', 'dump_queues', 'dump_requests']) expect((await as('victim-token', `/debug/api_priority_and_fairness/${dump}`)).status).toBe(403);
  });

  it('@kubernetes/client-node reads the configuration with its typed flowcontrol v1 API', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const api = kc.makeApiClient(k8s.FlowcontrolApiserverV1Api);
    const schemas = await api.listFlowSchema();
    const globalDefault = schemas.items.find((s) => s.metadata?.name === 'global-default');
    expect(globalDefault?.spec?.distinguisherMethod?.type).toBe('ByUser');
    expect(globalDefault?.status?.conditions?.find((c) => c.type === 'Dangling')?.status).toBe('False');
    const level = await api.readPriorityLevelConfiguration({ name: 'global-default' });
    expect(level.spec?.limited?.limitResponse?.queuing).toEqual({ queues: 128, handSize: 6, queueLengthLimit: 50 });
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes (dynamic client) creates a level and a schema, sees Dangling and the X-Kubernetes-PF-* headers', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/flowcontrol.py'), server.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.schemas).toContain('global-default');
    expect(out.levels).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    expect(out).toMatchObject({
      levelDefaults: { queues: 16, handSize: 8, queueLengthLimit: 50, lendablePercent: 0 },
      precedence: 5000,
      dangling: { status: 'False', reason: 'Found' },
      exemptHeader: true,
      levelHeader: true,
      left: [],
    });
  });

  it("a flood of lists from one user does not starve another user's reads", async () => {
    const { victim, during, floodStatuses } = await floodAndVictim(as);
    expect(victim).toEqual(Array(20).fill(200));
    // The flood went on while the victim read, and its requests waited in queues rather than being refused.
    expect(during).toBeGreaterThan(0);
    expect(floodStatuses.get(200)).toBeGreaterThan(60);
    const metrics = await (await as('loader-token', '/metrics')).text();
    const queued = /apiserver_flowcontrol_request_queue_length_after_enqueue_count\{flow_schema="global-default",priority_level="global-default"\} (\d+)/.exec(metrics);
    expect(Number(queued?.[1])).toBeGreaterThan(0);
    const res = await as('victim-token', '/api/v1/namespaces/default/configmaps/cm-2');
    const globalDefault = JSON.parse(admin('get', 'flowschema', 'global-default', '-o', 'json').stdout);
    expect(res.headers.get('x-kubernetes-pf-flowschema-uid')).toBe(globalDefault.metadata.uid);
  }, 60_000);
});

describe.skipIf(!kubectlPath)('without API Priority and Fairness', () => {
  let server: ServerProcess;
  let as: Awaited<ReturnType<typeof startWithUsers>>['as'];
  beforeAll(async () => {
    ({ server, as } = await startWithUsers(['--enable-priority-and-fairness=false', '--max-requests-inflight=1', '--max-mutating-requests-inflight=1']));
  }, 60_000);
  afterAll(async () => server?.stop());

  it('the same flood holds the only read slot and the other user is refused: what APF is for', async () => {
    const { victim, floodStatuses } = await floodAndVictim(as);
    expect(victim.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(floodStatuses.get(429)).toBeGreaterThan(0);
  }, 60_000);
});
