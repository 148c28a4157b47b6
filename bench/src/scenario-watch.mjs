// Scenario 4: watch fan-out, watchers × write rates, on a fresh server per backend.
import { cpuCell, createNamespaces, errorRow, log, measured, nextEtcdPrefix, P, results, rows, sleep } from './context.mjs';
import { startKapi, stop, tempDir } from './processes.mjs';
import { mib, ms, num, target } from './report.mjs';

/**
 * Encodes per event per media type, counted from the code (not measured): the watch cache frames each object
 * version once per media type and shares the bytes among all watchers (`frameOnce` in
 * packages/apiserver/src/endpoints/watch-framing.ts). Table watches (kubectl get -w) are rendered per watcher.
 */
const JSON_ENCODES_PER_EVENT = 1;

/** Every watchers × rate cell of scenario 4 on one fresh server of `backend`; one row per cell. */
export async function watchScenario(backend, etcd) {
  const dataDir = tempDir(`kapi-bench-watch-${backend}-`);
  log(`${backend}: 4 watch fan-out, starting kapi-server`);
  const srv = await startKapi({ backend, dataDir, etcdEndpoint: etcd?.endpoint, etcdPrefix: nextEtcdPrefix() });
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
          run.cells.push({ ...result, server, etcd: usage[1], encodesPerEventPerMediaType: { json: JSON_ENCODES_PER_EVENT } });
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
            target: lagTarget ? target(`p99 lag ≤ ${ms(lagTarget)}, rate kept, all delivered`, met) : 'stretch',
            notes: [
              `JSON encodes/event: ${JSON_ENCODES_PER_EVENT}`,
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
