#!/usr/bin/env node
// `pnpm bench [scenario...] [--quick|--full] [--backends=memory,sqlite,etcd3] [--json=FILE]`
// Starts the built kapi-server and the baselines, drives load from separate processes, prints one Markdown
// table and writes the same results as JSON. Builds nothing: run `pnpm build` first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { memory, phaseMeter } from './proc.mjs';
import { collectGarbage, etcdBinary, killAll, repoRoot, runDriver, serverMain, startBaselineServer, startEtcd, startKapi, stop, tempDir } from './processes.mjs';
import { markdownTable, mbps, mib, ms, num, ratio, seconds, target } from './report.mjs';
import { median } from './stats.mjs';

const PROFILES = {
  quick: {
    create: 2_000, stored: 10_000, list: 5_000, listReps: 2, getSeconds: 3, mediaSeconds: 2, mediaObjects: 500,
    watchers: [100, 1_000], rates: [100, 1_000], watchSeconds: 3, watchDrainSeconds: 3, codecSeconds: 0.3, deadlineMinutes: 20,
  },
  full: {
    create: 10_000, stored: 100_000, list: 50_000, listReps: 3, getSeconds: 10, mediaSeconds: 5, mediaObjects: 500,
    watchers: [100, 1_000], rates: [100, 1_000], watchSeconds: 10, watchDrainSeconds: 10, codecSeconds: 1, deadlineMinutes: 90,
  },
};
const CREATE_CONCURRENCY = 32;
const GET_CONNECTIONS = 64;
const MEDIA_LIST_CONNECTIONS = 8;
const PAGE = 500;
const WARMUP_CREATES = 500;
const SCENARIOS = { create: '1', get: '2', list: '3', watch: '4', memory: '5', media: '6' };
const BACKENDS = ['memory', 'sqlite', 'etcd3'];
const MEDIA = {
  JSON: 'application/json',
  YAML: 'application/yaml',
  Protobuf: 'application/vnd.kubernetes.protobuf',
  CBOR: 'application/cbor',
};

const USAGE = `Usage: pnpm bench [scenario...] [--quick | --full] [--backends=memory,sqlite,etcd3] [--json=FILE]

Scenarios (default: all): create (1), get (2), list (3), watch (4), memory (5), media (6).
--quick   smaller counts, a few minutes (the default)
--full    the issue's counts: 10,000 creates, 100,000 stored, 50,000 listed, 10 s per load phase
--json    where to write the results (default bench/results/latest.json)
Run \`pnpm build\` first: this command builds nothing.
`;

const log = (message) => process.stderr.write(`${message}\n`);
const sleep = (msVal) => new Promise((r) => setTimeout(r, msVal));

// ---------------------------------------------------------------------------------------------- arguments
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean' },
    full: { type: 'boolean' },
    backends: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (flags.quick && flags.full) fail('--quick and --full exclude each other');
const profileName = flags.full ? 'full' : 'quick';
const P = PROFILES[profileName];
const wanted = new Set();
for (const name of positionals) {
  const key = Object.entries(SCENARIOS).find(([k, n]) => k === name || n === name)?.[0];
  if (!key) fail(`unknown scenario "${name}"\n\n${USAGE}`);
  wanted.add(key);
}
if (wanted.size === 0) for (const k of Object.keys(SCENARIOS)) wanted.add(k);
const want = (k) => wanted.has(k);
let backends = (flags.backends ?? BACKENDS.join(',')).split(',').filter(Boolean);
for (const b of backends) if (!BACKENDS.includes(b)) fail(`unknown backend "${b}" (${BACKENDS.join(', ')})`);
const jsonPath = resolve(process.env.INIT_CWD ?? process.cwd(), flags.json ?? join(repoRoot, 'bench', 'results', 'latest.json'));

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

if (!existsSync(serverMain)) fail(`${serverMain} is missing: run \`pnpm build\` first (bench builds nothing)`);

// Every process started is stopped on the way out: normal exit, error, signal or deadline.
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`bench: ${signal}, stopping everything`);
    killAll();
    process.exit(130);
  });
}
const deadline = setTimeout(() => {
  log(`bench: the run exceeded its ${P.deadlineMinutes}-minute limit; stopping everything`);
  killAll();
  process.exit(3);
}, P.deadlineMinutes * 60_000);
deadline.unref();

// ---------------------------------------------------------------------------------------------- helpers
const rows = [];
const results = { meta: machine(), profile: { name: profileName, ...P }, scenarios: [...wanted], backends: [], baselines: {}, runs: [], skipped: [], errors: [] };
const B = results.baselines;

function machine() {
  const git = (...args) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).stdout?.trim();
  return {
    date: new Date().toISOString(),
    command: `pnpm bench ${process.argv.slice(2).join(' ')}`.trim(),
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryBytes: os.totalmem(),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
    commit: git('rev-parse', '--short', 'HEAD'),
    dirty: Boolean(git('status', '--porcelain')),
  };
}

/** Runs one driver task while metering `pids` (CPU, peak RSS) over the part the driver measures. */
async function measured(pids, task, timeoutMs) {
  const meter = phaseMeter(pids);
  let started = false;
  const result = await runDriver(task, {
    onStart: () => {
      started = true;
      meter.start();
    },
    timeoutMs,
  });
  const usage = started ? meter.stop() : pids.map(() => ({}));
  return { result, usage };
}

function checkErrors(what, result) {
  if (result.errors > 0 && result.ops === 0) throw new Error(`${what}: every request failed: ${result.firstError}`);
  if (result.errors > 0) log(`  ${what}: ${result.errors} errors (first: ${result.firstError})`);
}

const per1k = (cpuSecondsVal, ops) => (ops > 0 ? (cpuSecondsVal / ops) * 1000 : NaN);
const cpuCell = (cpuSecondsVal, ops, unit = '') => {
  const v = per1k(cpuSecondsVal, ops);
  return Number.isNaN(v) ? '—' : `${v.toFixed(v < 0.1 ? 3 : 2)}${unit}`;
};

async function post(origin, path, body) {
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201 && res.status !== 409) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

async function createNamespaces(origin, names) {
  for (const name of names) await post(origin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Creates `count` ConfigMaps `cm-<start..>` in a namespace, 32 at a time (not a measured phase). */
async function fill(srv, namespace, start, count) {
  if (count <= 0) return;
  const t0 = performance.now();
  const { result } = await measured([srv.pid], createTask(srv.origin, namespace, start, count, 900), 960_000);
  checkErrors(`fill ${namespace}`, result);
  log(`  filled ${num(result.ops)} ConfigMaps into ${namespace} in ${seconds((performance.now() - t0) / 1000)}`);
  if (result.ops < count) throw new Error(`fill ${namespace}: only ${result.ops} of ${count} created within the time limit`);
}

function createTask(origin, namespace, start, count, maxSeconds) {
  return {
    kind: 'http',
    origin,
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    method: 'POST',
    connections: CREATE_CONCURRENCY,
    maxOps: count,
    maxSeconds,
    create: { namespace, prefix: 'cm-', start, dataBytes: 1024 },
  };
}

function codecRow(object, format) {
  return B.B3?.rows.find((r) => r.object.startsWith(object) && r.format === format);
}

function errorRow(id, scenario, backend, error) {
  const message = String(error?.message ?? error).split('\n')[0];
  log(`  ✗ ${scenario} (${backend}): ${message}`);
  results.errors.push({ scenario, backend, message: String(error?.stack ?? error) });
  rows.push({ id, scenario, backend, notes: `failed: ${message}` });
}

// ---------------------------------------------------------------------------------------------- baselines
async function baselineCodecs() {
  log('B3 codecs (in-process)');
  const { result } = await measured([], { kind: 'codecs', seconds: P.codecSeconds, listItems: PAGE }, 300_000);
  B.B3 = result;
  for (const r of result.rows) {
    rows.push({
      id: 'B3',
      scenario: `codec ${r.object} ${r.format}`,
      backend: 'in-process',
      throughput: `${num(r.encodeOps)} enc/s · ${num(r.decodeOps)} dec/s`,
      notes: `${num(r.bytes)} B; encode ${mbps(r.encodeMBps * 1e6)}`,
    });
  }
}

async function baselineHttp() {
  const srv = await startBaselineServer();
  try {
    if (want('get') || want('media')) {
      log('B1 bare node:http GET');
      const { result, usage } = await measured(
        [srv.pid],
        { kind: 'http', origin: srv.origin, path: '/', connections: GET_CONNECTIONS, maxOps: 50_000_000, maxSeconds: P.getSeconds, warmupSeconds: 1 },
        (P.getSeconds + 60) * 1000,
      );
      checkErrors('B1', result);
      B.B1 = { ...result, server: usage[0] };
      rows.push({
        id: 'B1',
        scenario: `bare node:http GET 1 KiB JSON, ${GET_CONNECTIONS} conns`,
        backend: '—',
        throughput: `${num(result.opsPerSec)} req/s`,
        p50: ms(result.latency.p50),
        p99: ms(result.latency.p99),
        cpu: cpuCell(usage[0].cpuSeconds, result.ops),
        rss: mib(usage[0].peakRss),
      });
    }
    if (want('create')) {
      log('B2 bare node:http POST echo');
      const task = { ...createTask(srv.origin, 'bench', 0, 50_000_000, P.getSeconds), path: '/', warmupSeconds: 1 };
      const { result, usage } = await measured([srv.pid], task, (P.getSeconds + 60) * 1000);
      checkErrors('B2', result);
      B.B2 = { ...result, server: usage[0] };
      rows.push({
        id: 'B2',
        scenario: `bare node:http POST echo 1 KiB, ${CREATE_CONCURRENCY} conc, ${P.getSeconds} s`,
        backend: '—',
        throughput: `${num(result.opsPerSec)} req/s`,
        p50: ms(result.latency.p50),
        p99: ms(result.latency.p99),
        cpu: cpuCell(usage[0].cpuSeconds, result.ops),
        rss: mib(usage[0].peakRss),
      });
    }
  } finally {
    await stop(srv.child);
  }
}

async function baselineEtcd(etcd) {
  log('B4 raw etcd creates');
  const { result, usage } = await measured(
    [etcd.pid],
    { kind: 'etcdPuts', endpoint: etcd.endpoint, prefix: '/bench-b4', concurrency: CREATE_CONCURRENCY, maxOps: P.create, maxSeconds: 120, warmupOps: WARMUP_CREATES },
    180_000,
  );
  checkErrors('B4', result);
  B.B4 = { ...result, etcd: usage[0], version: etcd.version };
  rows.push({
    id: 'B4',
    scenario: `raw etcd create txn (@kapi/storage-etcd, grpc-js), ${CREATE_CONCURRENCY} conc, ${num(result.ops)} keys`,
    backend: 'etcd',
    throughput: `${num(result.opsPerSec)} puts/s`,
    p50: ms(result.latency.p50),
    p99: ms(result.latency.p99),
    cpu: `${cpuCell(usage[0].cpuSeconds, result.ops)} (etcd)`,
    rss: `${mib(usage[0].peakRss)} (etcd)`,
    notes: `${result.valueBytes} B values; ${etcd.version}`,
  });
}

// ---------------------------------------------------------------------------------------------- scenarios 1, 2, 3, 5, 6
let etcdPrefixes = 0;

async function dataScenarios(backend, etcd) {
  const needData = want('get') || want('list') || want('memory');
  const media = want('media') && backend === mediaBackend;
  if (!want('create') && !needData && !media) return;
  const dataDir = tempDir(`kapi-bench-${backend}-`);
  const etcdPrefix = `/bench-${++etcdPrefixes}`;
  const start = () => startKapi({ backend, dataDir, etcdEndpoint: etcd?.endpoint, etcdPrefix });
  const pids = (srv) => [srv.pid, ...(backend === 'etcd3' ? [etcd.pid] : [])];
  const run = { backend, kind: 'data' };
  results.runs.push(run);

  if (want('memory')) {
    // The empty server's memory, after a full GC, in a server of its own (the inspector stays off under load).
    const empty = await startKapi({ backend, dataDir: tempDir(`kapi-bench-empty-${backend}-`), etcdEndpoint: etcd?.endpoint, etcdPrefix: `/bench-${++etcdPrefixes}` });
    try {
      run.emptyStartMs = empty.readyMs;
      await sleep(500);
      await collectGarbage(empty);
      run.emptyRss = memory(empty.pid).rss;
    } finally {
      await stop(empty.child);
    }
  }

  log(`${backend}: starting kapi-server`);
  let srv = await start();
  let jsonBytes;
  try {
    await createNamespaces(srv.origin, ['bench', 'bench-list', 'bench-media', 'bench-warmup']);

    // A warmed-up server, as in production: the first requests compile the hot paths.
    await fill(srv, 'bench-warmup', 0, WARMUP_CREATES);

    // 1. Create N ConfigMaps with 32 concurrent clients.
    if (want('create') || needData) {
      log(`${backend}: 1 create ${num(P.create)}`);
      const { result, usage } = await measured(pids(srv), createTask(srv.origin, 'bench', 0, P.create, 300), 360_000);
      checkErrors('create', result);
      run.create = { ...result, server: usage[0], etcd: usage[1] };
      if (want('create')) {
        const base = backend === 'etcd3' && B.B4 ? [ratio(result.opsPerSec, B.B2?.opsPerSec, 'B2'), ratio(result.opsPerSec, B.B4.opsPerSec, 'B4')].join('; ') : ratio(result.opsPerSec, B.B2?.opsPerSec, 'B2');
        rows.push({
          id: '1',
          scenario: `create ${num(P.create)} ConfigMaps (1 KiB), ${CREATE_CONCURRENCY} conc`,
          backend,
          throughput: `${num(result.opsPerSec)} obj/s`,
          p50: ms(result.latency.p50),
          p99: ms(result.latency.p99),
          cpu: cpuCell(usage[0].cpuSeconds, result.ops),
          rss: mib(usage[0].peakRss),
          ratio: base,
          target: target('p99 ≤ 50 ms', result.latency.p99 <= 50 && result.errors === 0),
          notes: [result.errors ? `${result.errors} errors` : '', usage[1] ? `etcd CPU ${cpuCell(usage[1].cpuSeconds, result.ops)} s/1k` : ''].filter(Boolean).join('; '),
        });
      }
    }
    const got = await fetch(`${srv.origin}/api/v1/namespaces/bench/configmaps/cm-0`);
    jsonBytes = (await got.arrayBuffer()).byteLength;
    run.objectJsonBytes = jsonBytes;

    if (needData) {
      log(`${backend}: filling to ${num(P.stored)} objects`);
      await fill(srv, 'bench-list', 0, P.list);
      await fill(srv, 'bench', P.create, P.stored - P.create - P.list);
    }

    // 2. GET one object with 64 connections while the store holds the objects.
    if (want('get')) {
      log(`${backend}: 2 GET`);
      const { result, usage } = await measured(
        pids(srv),
        { kind: 'http', origin: srv.origin, path: '/api/v1/namespaces/bench/configmaps/cm-0', connections: GET_CONNECTIONS, maxOps: 50_000_000, maxSeconds: P.getSeconds, warmupSeconds: 1 },
        (P.getSeconds + 60) * 1000,
      );
      checkErrors('get', result);
      run.get = { ...result, server: usage[0], etcd: usage[1] };
      const r = result.opsPerSec / B.B1?.opsPerSec;
      rows.push({
        id: '2',
        scenario: `GET 1 object, ${GET_CONNECTIONS} conns, ${num(P.stored)} stored`,
        backend,
        throughput: `${num(result.opsPerSec)} req/s`,
        p50: ms(result.latency.p50),
        p99: ms(result.latency.p99),
        cpu: cpuCell(usage[0].cpuSeconds, result.ops),
        rss: mib(usage[0].peakRss),
        ratio: ratio(result.opsPerSec, B.B1?.opsPerSec, 'B1'),
        target: target('≥ 0.5× B1', Number.isFinite(r) ? r >= 0.5 : undefined),
        notes: [result.errors ? `${result.errors} errors` : '', usage[1] ? `etcd CPU ${cpuCell(usage[1].cpuSeconds, result.ops)} s/1k` : ''].filter(Boolean).join('; '),
      });
    }

    // 3. LIST the list namespace, unpaged and in pages of 500.
    if (want('list')) {
      const b3 = codecRow('ConfigMapList', 'JSON');
      for (const paged of [false, true]) {
        log(`${backend}: 3 LIST ${paged ? `limit=${PAGE}` : 'unpaged'}`);
        const reps = [];
        for (let i = 0; i < P.listReps; i++) {
          const before = memory(srv.pid).rss;
          const { result, usage } = await measured(
            pids(srv),
            {
              kind: 'http',
              origin: srv.origin,
              path: `/api/v1/namespaces/bench-list/configmaps${paged ? `?limit=${PAGE}` : ''}`,
              connections: 1,
              maxOps: 1,
              maxSeconds: 300,
              pages: paged ? { maxPages: Math.ceil(P.list / PAGE) + 5 } : undefined,
            },
            360_000,
          );
          checkErrors('list', result);
          if (result.ops !== 1) throw new Error(`list: ${result.firstError ?? 'no response'}`);
          reps.push({ seconds: result.latency.max / 1000, bytes: result.bytesIn, extraRss: usage[0].peakRss - before, cpuSeconds: usage[0].cpuSeconds, peakRss: usage[0].peakRss });
        }
        const t = median(reps.map((r) => r.seconds));
        const bytes = reps[0].bytes;
        const extra = Math.max(...reps.map((r) => r.extraRss));
        const rate = bytes / t;
        (run.list ??= {})[paged ? 'paged' : 'unpaged'] = { reps, medianSeconds: t, bytesPerSecond: rate };
        rows.push({
          id: '3',
          scenario: `LIST ${num(P.list)} ConfigMaps ${paged ? `limit=${PAGE} (${Math.ceil(P.list / PAGE)} pages)` : 'unpaged'}`,
          backend,
          throughput: mbps(rate),
          cpu: cpuCell(median(reps.map((r) => r.cpuSeconds)), P.list, ' /1k obj'),
          rss: mib(Math.max(...reps.map((r) => r.peakRss))),
          ratio: ratio(rate, b3 ? b3.encodeMBps * 1e6 : NaN, 'B3 JSON encode'),
          target: paged ? target('extra RSS ≤ 64 MiB', extra <= 64 * 1024 ** 2) : target('total ≤ 5 s', t <= 5),
          notes: `total ${seconds(t)} (median of ${reps.length}), ${num(bytes / 1e6)} MB, peak extra RSS ${mib(extra)}`,
        });
      }
    }

    // 6. GET and LIST per media type against the codec's own speed.
    if (media) await mediaScenario(srv, pids(srv), backend);

    // 5. Memory at rest with the stored objects: after the load, idle, after a full GC.
    if (want('memory')) {
      await sleep(1000);
      const beforeGc = memory(srv.pid).rss;
      await collectGarbage(srv);
      const rest = memory(srv.pid).rss;
      const objects = P.stored + WARMUP_CREATES + (media ? P.mediaObjects : 0);
      const perObject = (rest - run.emptyRss) / objects;
      run.rest = { objects, rss: rest, rssBeforeGc: beforeGc, perObject, jsonBytes };
      rows.push({
        id: '5',
        scenario: `memory at rest, ${num(objects)} objects`,
        backend,
        rss: `${mib(rest)} at rest`,
        ratio: ratio(perObject, jsonBytes, 'JSON size'),
        target: target('≤ 3× JSON size', perObject <= 3 * jsonBytes),
        notes: `${num(perObject)} B RSS/object vs ${num(jsonBytes)} B JSON, after a full GC (before: ${mib(beforeGc)}); empty server ${mib(run.emptyRss)}`,
      });
    }
  } finally {
    await stop(srv.child);
  }

  // 5. Cold start with the data (the durable backends).
  if (want('memory') && backend !== 'memory') {
    log(`${backend}: 5 cold start`);
    srv = await start();
    try {
      const readyMs = srv.readyMs;
      await sleep(500);
      await collectGarbage(srv);
      const rss = memory(srv.pid).rss;
      const t0 = performance.now();
      const res = await fetch(`${srv.origin}/api/v1/namespaces/bench/configmaps/cm-0`);
      await res.arrayBuffer();
      const firstGetMs = performance.now() - t0;
      if (res.status !== 200) throw new Error(`GET after restart: ${res.status}`);
      run.coldStart = { readyMs, rss, firstGetMs };
      rows.push({
        id: '5',
        scenario: `cold start with ${num(P.stored + WARMUP_CREATES)} objects`,
        backend,
        rss: `${mib(rss)} after start`,
        ratio: ratio(readyMs, run.emptyStartMs, 'empty start'),
        target: target('ready ≤ 3 s', readyMs <= 3000),
        notes: `ready in ${ms(readyMs)} (empty: ${ms(run.emptyStartMs)}); first GET ${ms(firstGetMs)}; ${num((rss - run.emptyRss) / (P.stored + WARMUP_CREATES))} B RSS/object`,
      });
    } finally {
      await stop(srv.child);
    }
  }
}

async function mediaScenario(srv, pids, backend) {
  log(`${backend}: 6 media types`);
  await fill(srv, 'bench-media', 0, P.mediaObjects);
  let jsonGet;
  for (const [format, type] of Object.entries(MEDIA)) {
    for (const list of [false, true]) {
      const path = list ? '/api/v1/namespaces/bench-media/configmaps' : '/api/v1/namespaces/bench-media/configmaps/cm-0';
      const connections = list ? MEDIA_LIST_CONNECTIONS : GET_CONNECTIONS;
      try {
        const { result, usage } = await measured(
          pids,
          { kind: 'http', origin: srv.origin, path, headers: { accept: type }, connections, maxOps: 50_000_000, maxSeconds: P.mediaSeconds, warmupSeconds: 0.5 },
          (P.mediaSeconds + 120) * 1000,
        );
        checkErrors(`media ${format}`, result);
        const codec = codecRow(list ? 'ConfigMapList' : 'ConfigMap', format);
        if (!list && format === 'JSON') jsonGet = result.opsPerSec;
        (results.media ??= []).push({ format, list, ...result, server: usage[0] });
        const r = list ? result.opsPerSec / codec?.encodeOps : result.opsPerSec / jsonGet;
        rows.push({
          id: '6',
          scenario: list ? `LIST ${num(P.mediaObjects)} as ${format}, ${connections} conns` : `GET as ${format}, ${connections} conns`,
          backend,
          throughput: list ? `${num(result.opsPerSec)} lists/s · ${mbps(result.bytesIn / result.seconds)}` : `${num(result.opsPerSec)} req/s`,
          p50: ms(result.latency.p50),
          p99: ms(result.latency.p99),
          cpu: cpuCell(usage[0].cpuSeconds, result.ops),
          rss: mib(usage[0].peakRss),
          ratio: ratio(result.opsPerSec, codec?.encodeOps, `B3 ${format} encode`),
          target: list
            ? target('≥ 0.25× B3 encode', Number.isFinite(r) ? r >= 0.25 : undefined)
            : format === 'YAML'
              ? '— (interactive use)'
              : target('≥ 0.8× JSON GET', Number.isFinite(r) ? r >= 0.8 : undefined),
          notes: `${num(result.bytesIn / Math.max(1, result.ops))} B/response`,
        });
      } catch (error) {
        errorRow('6', `${list ? 'LIST' : 'GET'} as ${format}`, backend, error);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------- scenario 4
async function watchScenario(backend, etcd) {
  const dataDir = tempDir(`kapi-bench-watch-${backend}-`);
  log(`${backend}: 4 watch fan-out, starting kapi-server`);
  const srv = await startKapi({ backend, dataDir, etcdEndpoint: etcd?.endpoint, etcdPrefix: `/bench-${++etcdPrefixes}` });
  const run = { backend, kind: 'watch', cells: [] };
  results.runs.push(run);
  try {
    await createNamespaces(srv.origin, ['bench-watch']);
    let cell = 0;
    for (const watchers of P.watchers) {
      for (const rate of P.rates) {
        const name = `${num(watchers)} watchers × ${num(rate)} writes/s`;
        log(`${backend}: 4 ${name}`);
        try {
          const { result, usage } = await measured(
            [srv.pid, ...(backend === 'etcd3' ? [etcd.pid] : [])],
            { kind: 'watch', origin: srv.origin, namespace: 'bench-watch', prefix: `w${++cell}-`, watchers, rate, seconds: P.watchSeconds, drainSeconds: P.watchDrainSeconds },
            (P.watchSeconds + P.watchDrainSeconds + 180) * 1000,
          );
          const server = usage[0];
          run.cells.push({ ...result, server, etcd: usage[1], encodesPerEventPerMediaType: { json: watchers } });
          const fraction = result.expected ? result.delivered / result.expected : NaN;
          const kept = result.written / (rate * P.watchSeconds);
          const lagTarget = watchers <= 100 && rate <= 100 ? 100 : watchers * rate <= 100_000 ? 1000 : undefined;
          const met = Math.max(result.lag.p99, result.lagFromRequest.p99) <= lagTarget && fraction >= 0.999 && kept >= 0.95;
          rows.push({
            id: '4',
            scenario: `watch ${name}`,
            backend,
            throughput: `${num(result.deliveredPerSec)} events/s`,
            p50: ms(result.lag.p50),
            p99: ms(result.lag.p99),
            cpu: `${cpuCell(server.cpuSeconds, result.delivered)} /1k events`,
            rss: mib(server.peakRss),
            ratio: `${(fraction * 100).toFixed(fraction < 0.995 ? 1 : 0)}% delivered`,
            target: lagTarget ? target(`p99 lag ≤ ${ms(lagTarget)}, rate kept, all delivered`, met) : 'stretch: needs encode-once',
            notes: [
              `JSON encodes/event: ${num(watchers)}`,
              `writes ${Math.round(kept * 100)}% of rate, p99 ${ms(result.writeLatency.p99)}`,
              `lag from request p50/p99 ${ms(result.lagFromRequest.p50)}/${ms(result.lagFromRequest.p99)}`,
              `${Math.round((result.early / Math.max(1, result.delivered)) * 100)}% before response`,
              `server ${(server.cpuSeconds / server.seconds).toFixed(2)} cores, driver ${(result.driverCpuSeconds / result.seconds).toFixed(2)}`,
              result.writeErrors ? `${result.writeErrors} write errors` : '',
              result.errorEvents ? `${result.errorEvents} ERROR events` : '',
            ].filter(Boolean).join('; '),
          });
        } catch (error) {
          errorRow('4', `watch ${name}`, backend, error);
        }
        await sleep(500);
      }
    }
  } finally {
    await stop(srv.child);
  }
}

// ---------------------------------------------------------------------------------------------- main
let mediaBackend;

async function main() {
  log(`kapi bench (${profileName}): scenarios ${[...wanted].join(', ')}; node ${process.version}, ${os.availableParallelism()} CPUs`);
  let etcd;
  if (backends.includes('etcd3') || want('create')) {
    const bin = etcdBinary();
    if (bin) {
      etcd = await startEtcd(bin);
      log(`etcd: ${etcd.version} on ${etcd.endpoint}`);
    } else {
      const note = 'etcd is not on PATH (Debian: etcd-server): B4 and the etcd3 rows were skipped';
      log(note);
      results.skipped.push(note);
      backends = backends.filter((b) => b !== 'etcd3');
    }
  }
  results.backends = backends;
  mediaBackend = backends.includes('memory') ? 'memory' : backends[0];

  if (want('list') || want('media')) await baselineCodecs().catch((e) => errorRow('B3', 'codecs', 'in-process', e));
  if (want('get') || want('media') || want('create')) await baselineHttp().catch((e) => errorRow('B1/B2', 'bare node:http', '—', e));
  if (want('create') && etcd) await baselineEtcd(etcd).catch((e) => errorRow('B4', 'raw etcd', 'etcd', e));

  for (const backend of backends) {
    await dataScenarios(backend, etcd).catch((e) => errorRow('1–6', 'data scenarios', backend, e));
  }
  if (want('watch')) {
    for (const backend of backends) await watchScenario(backend, etcd).catch((e) => errorRow('4', 'watch', backend, e));
  }
  if (etcd) await stop(etcd.child);
}

try {
  await main();
} catch (error) {
  results.errors.push({ message: String(error?.stack ?? error) });
  log(`bench: ${error?.stack ?? error}`);
}

const m = results.meta;
m.loadAverageAtEnd = os.loadavg();
const load = (l) => l.map((v) => v.toFixed(1)).join(' ');
const header = [
  `kapi bench --${profileName} · ${m.date.slice(0, 10)} · ${m.nproc} CPUs (${m.cpu}) · ${mib(m.memoryBytes)} RAM · node ${m.node} · ${m.kernel} · commit ${m.commit}${m.dirty ? '+dirty' : ''}`,
  `load average (1, 5, 15 min) at start ${load(m.loadAverageAtStart)}, at end ${load(m.loadAverageAtEnd)}; other processes on the machine share its CPUs`,
  ...results.skipped.map((s) => `skipped: ${s}`),
];
results.table = markdownTable(rows);
results.rows = rows;
mkdirSync(dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`\n${header.join('\n')}\n\n${results.table}\n\nresults: ${jsonPath}\n`);
killAll();
process.exit(results.errors.length ? 1 : 0);
