// The state one run shares across its modules (set once by run.mjs), and the helpers every scenario uses.
import { phaseMeter } from './proc.mjs';
import { runDriver } from './processes.mjs';
import { mib, ms, num, seconds } from './report.mjs';
import { CREATE_CONCURRENCY } from './config.mjs';

/** The profile's counts (PROFILES.quick or .full). */
export let P;
/** The table's rows, in the order they were measured. */
export const rows = [];
/** Everything written to the JSON file. */
export let results;
/** The baselines' raw results (B1..B4), once measured. */
export let B;
/** The backend scenario 6 runs on. */
export let mediaBackend;
let wanted = new Set();
let etcdPrefixes = 0;

export function configure(options) {
  P = options.profile;
  wanted = options.wanted;
  results = options.results;
  B = results.baselines;
  mediaBackend = options.mediaBackend;
}

export const want = (scenario) => wanted.has(scenario);
export const log = (message) => process.stderr.write(`${message}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A fresh etcd key prefix per server start, so servers on one etcd never see each other's data. */
export const nextEtcdPrefix = () => `/bench-${++etcdPrefixes}`;

/** Runs one driver task while metering `pids` (CPU, peak RSS) over the part the driver measures. */
export async function measured(pids, task, timeoutMs) {
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

export function checkErrors(what, result) {
  if (result.errors > 0 && result.ops === 0) throw new Error(`${what}: every request failed: ${result.firstError}`);
  if (result.errors > 0) log(`  ${what}: ${result.errors} errors (first: ${result.firstError})`);
}

const per1k = (cpuSecondsVal, ops) => (ops > 0 ? (cpuSecondsVal / ops) * 1000 : NaN);
export const cpuCell = (cpuSecondsVal, ops, unit = '') => {
  const v = per1k(cpuSecondsVal, ops);
  return Number.isNaN(v) ? '—' : `${v.toFixed(v < 0.1 ? 3 : 2)}${unit}`;
};

export async function post(origin, path, body) {
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201 && res.status !== 409) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

export async function createNamespaces(origin, names) {
  for (const name of names) await post(origin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Creates `count` ConfigMaps `cm-<start..>` in a namespace, 32 at a time (not a measured phase). */
export async function fill(srv, namespace, start, count) {
  if (count <= 0) return;
  const t0 = performance.now();
  const { result } = await measured([srv.pid], createTask(srv.origin, namespace, start, count, 900), 960_000);
  checkErrors(`fill ${namespace}`, result);
  log(`  filled ${num(result.ops)} ConfigMaps into ${namespace} in ${seconds((performance.now() - t0) / 1000)}`);
  if (result.ops < count) throw new Error(`fill ${namespace}: only ${result.ops} of ${count} created within the time limit`);
}

export function createTask(origin, namespace, start, count, maxSeconds) {
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

export function codecRow(object, format) {
  return B.B3?.rows.find((r) => r.object.startsWith(object) && r.format === format);
}

export function errorRow(id, scenario, backend, error) {
  const message = String(error?.message ?? error).split('\n')[0];
  log(`  ✗ ${scenario} (${backend}): ${message}`);
  results.errors.push({ scenario, backend, message: String(error?.stack ?? error) });
  rows.push({ id, scenario, backend, notes: `failed: ${message}` });
}

/**
 * The row of a measured load: throughput in `unit` per second, p50/p99 latency, server CPU per 1k operations and
 * peak RSS; `extra` adds columns (ratio, target, notes).
 */
export function loadRow(id, scenario, backend, unit, result, server, extra = {}) {
  rows.push({
    id,
    scenario,
    backend,
    throughput: `${num(result.opsPerSec)} ${unit}/s`,
    p50: ms(result.latency.p50),
    p99: ms(result.latency.p99),
    cpu: cpuCell(server.cpuSeconds, result.ops),
    rss: mib(server.peakRss),
    ...extra,
  });
}
