// Scenario 8 (etcd3 only): several kapi-server processes on one etcd and one --etcd-prefix. Creates and GETs with
// one process, then with two, the driver spreading its connections over their ports (Node 20 has no reusePort, so
// each process listens on a port of its own). Before the second measurement, a check that the processes see each
// other's writes: created through A, read and watched through B. And a second pair started at the same moment on a
// fresh prefix, to see both bootstrap the same empty prefix.
import { CREATE_CONCURRENCY, GET_CONNECTIONS } from './config.mjs';
import { checkErrors, cpuCell, createNamespaces, createTask, fill, log, measured, nextEtcdPrefix, P, results, rows } from './context.mjs';
import { configMapData } from './objects.mjs';
import { startKapi, stop, tempDir } from './processes.mjs';
import { mib, ms, num, ratio } from './report.mjs';

const NAMESPACE = 'bench-scale';

/** Each process has a data dir of its own (on etcd3 it holds only certificates and the kubeconfig) and a port. */
const startOne = (etcd, etcdPrefix, name) => startKapi({ backend: 'etcd3', dataDir: tempDir(`kapi-bench-scale-${name}-`), etcdEndpoint: etcd.endpoint, etcdPrefix });

export async function scaleScenario(etcd) {
  const run = { backend: 'etcd3', kind: 'scale', phases: {} };
  results.runs.push(run);
  const etcdPrefix = nextEtcdPrefix();
  const servers = [];
  try {
    log('etcd3: 8 starting kapi-server A');
    servers.push(await startOne(etcd, etcdPrefix, 'a'));
    await createNamespaces(servers[0].origin, [NAMESPACE, 'bench-warmup']);
    await fill(servers[0], 'bench-warmup', 0, P.warmup);
    await measurePhase(run, etcd, servers, 1);

    log('etcd3: 8 starting kapi-server B on the same etcd prefix');
    servers.push(await startOne(etcd, etcdPrefix, 'b'));
    await fill(servers[1], 'bench-warmup', P.warmup, P.warmup);
    run.consistency = await seeEachOther(servers[0], servers[1]);
    log(`  A→B: ${run.consistency.summary}`);
    await measurePhase(run, etcd, servers, 2);
  } finally {
    await Promise.all(servers.map((s) => stop(s.child)));
  }
  run.serverErrors = servers.map((s) => errorLines(s.output()));

  // Two processes starting at the same moment on an empty prefix: both bootstrap it (namespaces, RBAC, APF, the
  // kubernetes Service); the server retries a start that lost the race with AlreadyExists.
  log('etcd3: 8 two processes bootstrapping one empty prefix at once');
  const racePrefix = nextEtcdPrefix();
  const race = await Promise.allSettled([startOne(etcd, racePrefix, 'race-a'), startOne(etcd, racePrefix, 'race-b')]);
  run.bootstrapRace = race.map((r) => (r.status === 'fulfilled' ? { ready: true, readyMs: r.value.readyMs } : { ready: false, error: String(r.reason?.message ?? r.reason).slice(0, 2000) }));
  await Promise.all(race.filter((r) => r.status === 'fulfilled').map((r) => stop(r.value.child)));
  run.bootstrapRaceErrors = race.map((r) => (r.status === 'fulfilled' ? errorLines(r.value.output()) : []));

  const one = run.phases[1];
  const two = run.phases[2];
  for (const [what, unit] of [
    ['create', 'obj'],
    ['get', 'req'],
  ]) {
    for (const [n, phase] of [
      [1, one],
      [2, two],
    ]) {
      const r = phase[what];
      rows.push({
        id: '8',
        scenario: `${what === 'create' ? `create ConfigMaps (1 KiB), ${CREATE_CONCURRENCY} conc` : `GET 1 object, ${GET_CONNECTIONS} conns`}, ${n} process${n > 1 ? 'es' : ''} on one etcd, ${P.getSeconds} s`,
        backend: 'etcd3',
        throughput: `${num(r.opsPerSec)} ${unit}/s`,
        p50: ms(r.latency.p50),
        p99: ms(r.latency.p99),
        cpu: cpuCell(r.serverCpuSeconds, r.ops),
        rss: mib(Math.max(...r.servers.map((s) => s.peakRss))),
        ratio: n === 1 ? 'the reference' : ratio(r.opsPerSec, one[what].opsPerSec, '1 process'),
        target: '—',
        notes: [
          `server CPU summed over ${n} process${n > 1 ? 'es' : ''}; etcd CPU ${cpuCell(r.etcd.cpuSeconds, r.ops)} s/1k`,
          n > 1 && what === 'create' ? `A→B ${run.consistency.summary}` : '',
          n > 1 && what === 'get' ? `both-at-once bootstrap: ${run.bootstrapRace.map((b) => (b.ready ? 'ready' : 'FAILED')).join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      });
    }
  }
}

/** Creates and then GETs with `n` processes, load spread over their ports; CPU of every server and of etcd. */
async function measurePhase(run, etcd, servers, n) {
  const origins = servers.map((s) => s.origin);
  const pids = [...servers.map((s) => s.pid), etcd.pid];
  const phase = (run.phases[n] = {});
  log(`etcd3: 8 create with ${n} process(es)`);
  const create = await measured(pids, { ...createTask(origins[0], NAMESPACE, 0, 50_000_000, P.getSeconds), create: { namespace: NAMESPACE, prefix: `cm-${n}p-`, start: 0, dataBytes: 1024 }, origins, warmupSeconds: 1 }, (P.getSeconds + 120) * 1000);
  checkErrors(`scale create ${n}`, create.result);
  phase.create = summarize(create, servers.length);
  log(`etcd3: 8 GET with ${n} process(es)`);
  const get = await measured(
    pids,
    { kind: 'http', origin: origins[0], origins, path: `/api/v1/namespaces/${NAMESPACE}/configmaps/cm-${n}p-0`, connections: GET_CONNECTIONS, maxOps: 50_000_000, maxSeconds: P.getSeconds, warmupSeconds: 1 },
    (P.getSeconds + 120) * 1000,
  );
  checkErrors(`scale get ${n}`, get.result);
  phase.get = summarize(get, servers.length);
}

function summarize({ result, usage }, n) {
  const servers = usage.slice(0, n);
  return { ...result, servers, etcd: usage[n], serverCpuSeconds: servers.reduce((sum, s) => sum + s.cpuSeconds, 0) };
}

/**
 * Create through A; B must answer a GET with the same uid, deliver the ADDED event on a watch opened before the
 * create, and list it. Then update through B; A must read the new value.
 */
async function seeEachOther(a, b) {
  const path = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const check = {};
  const rv = (await (await fetch(`${b.origin}${path}?limit=1`)).json()).metadata.resourceVersion;
  const controller = new AbortController();
  const watch = await fetch(`${b.origin}${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=30`, { signal: controller.signal });
  const seen = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of watch.body) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes('"name":"probe-a"')) return true;
    }
    return false;
  })().catch(() => false);

  const t0 = performance.now();
  const created = await fetch(`${a.origin}${path}`, { method: 'POST', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe-a' }, data: configMapData(64) }) });
  const createdObj = await created.json();
  check.createdOnA = created.status;
  const timeout = new Promise((resolve) => setTimeout(() => resolve(false), 5000));
  check.watchOnB = await Promise.race([seen, timeout]);
  check.watchLagMs = check.watchOnB ? performance.now() - t0 : undefined;
  controller.abort();
  const got = await fetch(`${b.origin}${path}/probe-a`);
  check.getOnB = got.status;
  check.sameUid = got.status === 200 && (await got.json()).metadata.uid === createdObj.metadata?.uid;
  const list = await (await fetch(`${b.origin}${path}?fieldSelector=metadata.name%3Dprobe-a`)).json();
  check.listOnB = list.items?.length === 1;
  const patched = await fetch(`${b.origin}${path}/probe-a`, { method: 'PATCH', headers: { ...json, 'content-type': 'application/merge-patch+json' }, body: '{"data":{"from":"b"}}' });
  check.patchOnB = patched.status;
  const back = await (await fetch(`${a.origin}${path}/probe-a`)).json();
  check.readBackOnA = back.data?.from === 'b';
  const ok = check.createdOnA === 201 && check.watchOnB && check.getOnB === 200 && check.sameUid && check.listOnB && check.patchOnB === 200 && check.readBackOnA;
  check.summary = ok
    ? `consistent (B's watch saw A's create in ${ms(check.watchLagMs)}; GET, LIST on B and B's patch read on A agree)`
    : `INCONSISTENT: ${JSON.stringify(check)}`;
  return check;
}

/** The lines of a server's log that look like trouble (klog E/W lines, "error", "conflict"), at most 20. */
function errorLines(output) {
  return output
    .split('\n')
    .filter((l) => /^[EW]\d{4}|error|conflict|fail/i.test(l))
    .slice(0, 20);
}
