// Scenario 7 on one backend: the writes after a create. N ConfigMaps are created (the reference), then each is
// updated (PUT), merge-patched, server-side applied and deleted, every phase with 32 concurrent clients.
import { CREATE_CONCURRENCY } from './config.mjs';
import { checkErrors, cpuCell, createNamespaces, createTask, fill, loadRow, log, measured, nextEtcdPrefix, P, results, rows } from './context.mjs';
import { startKapi, stop, tempDir } from './processes.mjs';
import { num, ratio, target } from './report.mjs';

/** The measured writes after the creates, in order (delete last: it removes the objects the others change). */
export const WRITE_OPS = [
  ['update', 'update (PUT, no resourceVersion)'],
  ['patch', 'merge patch (application/merge-patch+json)'],
  ['apply', 'server-side apply (force, fieldManager=bench)'],
  ['delete', 'delete'],
];
/** The target: an update, patch or delete costs the server at most 1.5× a create. */
export const WRITE_COST_TARGET = 1.5;

const writeTask = (origin, namespace, op, count) => ({
  kind: 'http',
  origin,
  path: '/',
  connections: CREATE_CONCURRENCY,
  maxOps: count,
  maxSeconds: 300,
  write: { op, namespace, prefix: 'cm-', start: 0, dataBytes: 1024 },
});

/** Server CPU seconds per operation of one phase (etcd's not included: it is in the notes). */
export const cpuPerOp = (phase) => phase.server.cpuSeconds / phase.ops;

export async function writeScenario(backend, etcd) {
  const pids = (srv) => [srv.pid, ...(backend === 'etcd3' ? [etcd.pid] : [])];
  const run = { backend, kind: 'write' };
  results.runs.push(run);
  log(`${backend}: starting kapi-server (7 writes)`);
  const srv = await startKapi({ backend, dataDir: tempDir(`kapi-bench-write-${backend}-`), etcdEndpoint: etcd?.endpoint, etcdPrefix: nextEtcdPrefix() });
  try {
    await createNamespaces(srv.origin, ['bench-write', 'bench-warmup']);
    // Warm-up, unmeasured: every write path compiles on its first requests, as in a server that has run a while.
    await fill(srv, 'bench-warmup', 0, P.warmup);
    for (const [op] of WRITE_OPS) {
      const { result } = await measured([srv.pid], writeTask(srv.origin, 'bench-warmup', op, P.warmup), 360_000);
      checkErrors(`warm-up ${op}`, result);
    }

    const phases = [['create', 'create'], ...WRITE_OPS];
    for (const [op, label] of phases) {
      log(`${backend}: 7 ${op} ${num(P.write)}`);
      const task = op === 'create' ? createTask(srv.origin, 'bench-write', 0, P.write, 300) : writeTask(srv.origin, 'bench-write', op, P.write);
      const { result, usage } = await measured(pids(srv), task, 360_000);
      checkErrors(op, result);
      const phase = (run[op] = { ...result, server: usage[0], etcd: usage[1] });
      const cost = op === 'create' ? undefined : cpuPerOp(phase) / cpuPerOp(run.create);
      if (cost !== undefined) phase.costVsCreate = cost;
      loadRow('7', `${label} ${num(P.write)} ConfigMaps (1 KiB), ${CREATE_CONCURRENCY} conc`, backend, 'ops', result, usage[0], {
        ratio: op === 'create' ? 'the reference' : ratio(cost, 1, 'create CPU/op'),
        target: op === 'create' ? '' : target(`≤ ${WRITE_COST_TARGET}× create`, Number.isFinite(cost) ? cost <= WRITE_COST_TARGET : undefined),
        notes: [result.errors ? `${result.errors} errors` : '', usage[1] ? `etcd CPU ${cpuCell(usage[1].cpuSeconds, result.ops)} s/1k` : ''].filter(Boolean).join('; '),
      });
      if (result.ops < P.write) throw new Error(`${op}: only ${result.ops} of ${P.write} done (first error: ${result.firstError})`);
    }
  } finally {
    await stop(srv.child);
  }
}
