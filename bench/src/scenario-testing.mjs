// Scenario 10: @kapi/testing's startTestServer(), the in-process server tests start (no kapi-server process). Each
// measurement is in a fresh process (testing-child.mjs): one with an empty cache (it makes the test certificates and
// compiles the validators, and caches both), then three that find them cached, as every later test process does,
// then three with the certificates cached and the validators not; the rows give the medians of each three and, apart,
// the first start of the process that made the certificates.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, P, results, rows } from './context.mjs';
import { stop, track } from './processes.mjs';
import { mib, ms } from './report.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PROCESSES = 3;

export async function testingScenario() {
  const run = { backend: 'memory', kind: 'testing-start', starts: P.testingStarts, processes: [] };
  results.runs.push(run);
  const cacheDir = mkdtempSync(join(tmpdir(), 'kapi-bench-testing-cache-'));
  try {
    log('memory: startTestServer() with no certificates cached');
    run.uncached = await childRun(P.testingStarts, cacheDir);
    for (let i = 0; i < PROCESSES; i++) {
      log(`memory: ${1 + 2 * P.testingStarts} startTestServer() (process ${i + 1} of ${PROCESSES}, certificates cached)`);
      run.processes.push(await childRun(P.testingStarts, cacheDir));
    }
    run.uncompiled = [];
    for (let i = 0; i < PROCESSES; i++) {
      log(`memory: startTestServer() with certificates cached and no validators cached (process ${i + 1} of ${PROCESSES})`);
      rmSync(join(cacheDir, 'validators'), { recursive: true, force: true });
      run.uncompiled.push(await childRun(P.testingStarts, cacheDir));
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const all = (pick) => run.processes.map(pick);
  const med = (pick) => median(all(pick));
  const runs = (pick) => `per process ${all(pick).map(ms).join(', ')}`;
  const medOfMedians = (list, key) => med((p) => median(p[list].map((s) => s[key])));
  const row = (scenario, value, notes, rss) => rows.push({ id: '10', scenario, backend: 'memory', p50: ms(value), rss: rss === undefined ? undefined : mib(rss), notes });
  const n = P.testingStarts;
  row("await import('@kapi/testing'), fresh process", med((p) => p.importMs), runs((p) => p.importMs));
  row('first startTestServer() (HTTPS, kubeconfig; certificates cached by an earlier process)', med((p) => p.first.startMs), `${runs((p) => p.first.startMs)}; p50 column is the median of the processes`);
  row('first startTestServer() of the process that makes the certificates (empty cache)', run.uncached.first.startMs, `one process; its next ${n} HTTPS starts median ${ms(median(run.uncached.https.map((s) => s.startMs)))}`);
  const uncompiled = (pick) => median(run.uncompiled.map(pick));
  const uncompiledRuns = (pick) => `per process ${run.uncompiled.map(pick).map(ms).join(', ')}`;
  row('first startTestServer() with certificates cached, validators not (compiled by ajv)', uncompiled((p) => p.first.startMs), uncompiledRuns((p) => p.first.startMs));
  row('first Pod written in a process (create, in-process fetch; validators cached by an earlier process)', med((p) => p.first.firstPodMs), runs((p) => p.first.firstPodMs));
  row('first Pod written in a process, validators not cached (compiled by ajv)', uncompiled((p) => p.first.firstPodMs), uncompiledRuns((p) => p.first.firstPodMs));
  row(`next ${n} startTestServer() (HTTPS), median`, medOfMedians('https', 'startMs'), `stop() median ${ms(medOfMedians('https', 'stopMs'))}; first stop() ${ms(med((p) => p.first.stopMs))}`);
  row(`${n} startTestServer({ listen: false }), median`, medOfMedians('inProcess', 'startMs'), `stop() median ${ms(medOfMedians('inProcess', 'stopMs'))}; no socket, no certificates`);
  row(
    'RSS of the test process',
    undefined,
    [
      `before import ${mib(med((p) => p.rssBefore))}`,
      `one server running ${mib(med((p) => p.first.rssRunning))} (after GC ${mib(med((p) => p.first.rssRunningAfterGc))})`,
      `after its stop() ${mib(med((p) => p.first.rssAfterStop))} (after GC)`,
      `after all ${1 + 2 * n} starts and stops ${mib(med((p) => p.rssAtEnd))} (after GC)`,
    ].join('; '),
    med((p) => p.first.rssRunning),
  );
}

function childRun(starts, cacheDir) {
  const env = { ...process.env, KAPI_TESTING_CACHE_DIR: cacheDir };
  const child = track(fork(join(here, 'testing-child.mjs'), [], { env, execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('startTestServer(): no report within 300 s')), 300_000);
    child.on('message', (msg) => {
      clearTimeout(timer);
      resolve(msg.result);
    });
    child.once('exit', (code, signal) => reject(new Error(`the startTestServer() process exited (${code ?? signal}) before reporting`)));
    child.send({ starts });
  }).finally(() => stop(child, 1000));
}
