// The baselines, measured in the same run: B1/B2/B5 bare node:http, B3 the codecs in-process, B4 raw etcd.
import { CREATE_CONCURRENCY, GET_CONNECTIONS, PAGE } from './config.mjs';
import { B, checkErrors, cpuCell, createTask, loadRow, log, measured, P, rows, want } from './context.mjs';
import { startBaselineServer, stop } from './processes.mjs';
import { mbps, mib, ms, num } from './report.mjs';

/** B3: one row per object and format. */
export async function baselineCodecs() {
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

/** Records a bare node:http baseline (B1, B2, B5) and its row. */
function httpRow(id, scenario, result, server) {
  checkErrors(id, result);
  B[id] = { ...result, server };
  loadRow(id, scenario, '—', 'req', result, server);
}

/** B1 (for GET and media), B2 and B5 (for create) on one bare node:http server. */
export async function baselineHttp() {
  const srv = await startBaselineServer();
  try {
    if (want('get') || want('media')) {
      log('B1 bare node:http GET');
      const { result, usage } = await measured(
        [srv.pid],
        { kind: 'http', origin: srv.origin, path: '/', connections: GET_CONNECTIONS, maxOps: 50_000_000, maxSeconds: P.getSeconds, warmupSeconds: 1 },
        (P.getSeconds + 60) * 1000,
      );
      httpRow('B1', `bare node:http GET 1 KiB JSON, ${GET_CONNECTIONS} conns`, result, usage[0]);
    }
    if (want('create')) {
      log('B2 bare node:http POST echo');
      const task = { ...createTask(srv.origin, 'bench', 0, 50_000_000, P.getSeconds), path: '/', warmupSeconds: 1 };
      const { result, usage } = await measured([srv.pid], task, (P.getSeconds + 60) * 1000);
      httpRow('B2', `bare node:http POST echo 1 KiB, ${CREATE_CONCURRENCY} conc, ${P.getSeconds} s`, result, usage[0]);

      // B5: the same creates as scenario 1 (same driver settings, a 1 s warm-up with names of its own), to the
      // minimal-work handler: parse, stamp uid/creationTimestamp/resourceVersion, keep in a Map, answer.
      log('B5 bare node:http minimal create');
      const b5 = await measured([srv.pid], { ...createTask(srv.origin, 'bench', 0, 50_000_000, P.getSeconds), warmupSeconds: 1 }, (P.getSeconds + 60) * 1000);
      httpRow('B5', `bare node:http minimal create (parse, stamp, Map, answer) 1 KiB, ${CREATE_CONCURRENCY} conc, ${P.getSeconds} s`, b5.result, b5.usage[0]);
    }
  } finally {
    await stop(srv.child);
  }
}

/** B4: as many raw creates as scenario 1 makes, at its concurrency. */
export async function baselineEtcd(etcd) {
  log('B4 raw etcd creates');
  const { result, usage } = await measured(
    [etcd.pid],
    { kind: 'etcdPuts', endpoint: etcd.endpoint, prefix: '/bench-b4', concurrency: CREATE_CONCURRENCY, maxOps: P.create, maxSeconds: 120, warmupOps: P.warmup },
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
