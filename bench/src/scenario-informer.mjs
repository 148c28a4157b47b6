// Scenario 9: the informers of two clients against one kapi-server (memory backend, HTTPS, its admin kubeconfig).
// N ConfigMaps are created in one namespace; then each client's informer runs in a process of its own
// (informer-child.mjs): the initial sync (start → all N cached, with the process's RSS), then the update events per
// second it sees while a writer process merge-patches M of the objects as fast as it can, 32 at a time. Each client
// runs twice, in the order A B B A; the rows give the medians.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREATE_CONCURRENCY, PAGE } from './config.mjs';
import { checkErrors, createNamespaces, fill, log, P, results, rows } from './context.mjs';
import { runDriver, startKapi, stop, tempDir, track } from './processes.mjs';
import { mib, ms, num, ratio } from './report.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const NAMESPACE = 'bench-informer';
const CLIENTS = {
  kapi: { name: '@kapi/client Informer', list: `lists in pages of ${PAGE}` },
  'client-node': { name: '@kubernetes/client-node makeInformer', list: 'lists in one unpaged request (its ListWatch has no paging)' },
};
const ORDER = ['kapi', 'client-node', 'client-node', 'kapi'];

export async function informerScenario() {
  const backend = 'memory';
  const { informerObjects: count, informerUpdates: updates } = P;
  log(`${backend}: 9 informers, starting kapi-server (HTTPS, admin kubeconfig)`);
  const srv = await startKapi({ backend, dataDir: tempDir('kapi-bench-informer-'), secure: true });
  const run = { backend, kind: 'informer', objects: count, updates, pageSize: PAGE, runs: [] };
  results.runs.push(run);
  try {
    await createNamespaces(srv.origin, [NAMESPACE]);
    await fill(srv, NAMESPACE, 0, count);
    // Warm-up, unmeasured: one round of the patches, so the first informer measured does not meet a cold server.
    checkErrors('warm-up patch', await patchRound(srv, updates, 'warm-'));
    for (const [i, client] of ORDER.entries()) {
      log(`${backend}: 9 ${CLIENTS[client].name} (${i + 1} of ${ORDER.length})`);
      run.runs.push({ client, ...(await informerRun(srv, client, count, updates, `r${i}-`)) });
    }
  } finally {
    await stop(srv.child);
  }
  const of = (client, pick) => run.runs.filter((r) => r.client === client).map(pick);
  const m = (client, pick) => median(of(client, pick));
  const list = (client, pick, fmt) => of(client, pick).map(fmt).join(', ');
  for (const client of Object.keys(CLIENTS)) {
    const syncMs = m(client, (r) => r.sync.syncMs);
    rows.push({
      id: '9',
      scenario: `informer initial sync, ${num(count)} ConfigMaps (1 KiB): ${CLIENTS[client].name}`,
      backend,
      throughput: `${num(count / (syncMs / 1000))} objects/s`,
      rss: mib(m(client, (r) => r.sync.peakRss)),
      ratio: client === 'kapi' ? ratio(syncMs, m('client-node', (r) => r.sync.syncMs), 'client-node sync time') : '',
      notes: [
        `sync ${ms(syncMs)} (runs ${list(client, (r) => r.sync.syncMs, ms)})`,
        `client CPU ${ms(m(client, (r) => r.sync.syncCpu * 1000))}`,
        `RSS before start (library loaded) ${mib(m(client, (r) => r.sync.rssLoaded))}, after sync ${mib(m(client, (r) => r.sync.rss))}, after GC ${mib(m(client, (r) => r.sync.rssAfterGc))}`,
        CLIENTS[client].list,
      ].join('; '),
    });
  }
  for (const client of Object.keys(CLIENTS)) {
    const perSec = m(client, (r) => r.events.events / r.events.seconds);
    rows.push({
      id: '9',
      scenario: `informer update events, ${num(updates)} merge patches, ${CREATE_CONCURRENCY} conc: ${CLIENTS[client].name}`,
      backend,
      throughput: `${num(perSec)} events/s`,
      ratio: client === 'kapi' ? ratio(perSec, m('client-node', (r) => r.events.events / r.events.seconds), 'client-node') : '',
      notes: [
        `runs ${list(client, (r) => r.events.events / r.events.seconds, num)} events/s, first event to last`,
        `client CPU ${ms(m(client, (r) => (r.events.cpuSeconds / r.events.events) * 1e6))}/1k events`,
        `writer ${num(m(client, (r) => r.writer.opsPerSec))} patches/s`,
      ].join('; '),
    });
  }
}

/** One informer process: sync, then the events of one round of `updates` patches (tagged `tag`, so each changes). */
async function informerRun(srv, client, count, updates, tag) {
  const child = track(fork(join(here, 'informer-child.mjs'), [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const next = inbox(child, client);
  try {
    child.send({ client, kubeconfig: srv.kubeconfig, namespace: NAMESPACE, count, updates, pageSize: PAGE });
    const sync = await next(300_000);
    if (sync.cached !== count) throw new Error(`${client}: ${sync.cached} of ${count} objects cached at sync`);
    log(`  synced ${num(sync.cached)} in ${ms(sync.syncMs)}, RSS ${mib(sync.rss)}`);
    const writer = await patchRound(srv, updates, tag);
    checkErrors(`patch ${tag}`, writer);
    if (writer.ops < updates) throw new Error(`patch: only ${writer.ops} of ${updates} done (first error: ${writer.firstError})`);
    const events = await next(120_000);
    log(`  ${num(events.events)} update events at ${num(events.events / events.seconds)}/s (writer ${num(writer.opsPerSec)} patches/s)`);
    return { sync, events, writer: { ops: writer.ops, opsPerSec: writer.opsPerSec, seconds: writer.seconds, errors: writer.errors } };
  } finally {
    await stop(child, 1000);
  }
}

/** A writer process merge-patching ConfigMaps cm-0 … cm-<updates - 1>, 32 at a time, each to a value carrying `tag`. */
function patchRound(srv, updates, tag) {
  const write = { op: 'patch', namespace: NAMESPACE, prefix: 'cm-', start: 0, dataBytes: 1024, tag };
  const task = { kind: 'http', origin: srv.origin, path: '/', connections: CREATE_CONCURRENCY, maxOps: updates, maxSeconds: 300, write };
  return runDriver(task, { timeoutMs: 360_000 });
}

/** The child's messages, one at a time: `next(timeoutMs)` resolves with the next, or rejects on timeout or exit. */
function inbox(child, what) {
  const queue = [];
  const waiters = [];
  let exited;
  child.on('message', (m) => (waiters.length ? waiters.shift().resolve(m) : queue.push(m)));
  child.once('exit', (code, signal) => {
    exited = new Error(`${what}: the informer process exited (${code ?? signal}) before reporting`);
    for (const w of waiters.splice(0)) w.reject(exited);
  });
  return (timeoutMs) =>
    new Promise((resolve, reject) => {
      if (queue.length) return resolve(queue.shift());
      if (exited) return reject(exited);
      const timer = setTimeout(() => reject(new Error(`${what}: no report within ${timeoutMs / 1000} s`)), timeoutMs);
      const done = (fn) => (value) => {
        clearTimeout(timer);
        fn(value);
      };
      waiters.push({ resolve: done(resolve), reject: done(reject) });
    });
}
