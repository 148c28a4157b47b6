#!/usr/bin/env node
// `pnpm bench [scenario...] [--quick|--full] [--backends=memory,sqlite,etcd3] [--json=FILE] [--record[=FILE] | --guard[=FILE]]`
// Starts the built kapi-server and the baselines, drives load from separate processes, prints one Markdown
// table and writes the same results as JSON. Builds nothing: run `pnpm build` first. `--record` also writes the
// results to a file the regression guard reads; `--guard` reruns that file's scenarios and fails when a ratio
// to a baseline fell more than 20% below the recorded one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineCodecs, baselineEtcd, baselineHttp } from './baselines.mjs';
import { BACKENDS, PROFILES, SCENARIOS } from './config.mjs';
import { configure, errorRow, log, results, rows, want } from './context.mjs';
import { compareRatios, DEFAULT_TOLERANCE, guardTable, ratiosOf, readRecorded } from './guard.mjs';
import { etcdBinary, killAll, repoRoot, serverCheckout, serverMain, startEtcd } from './processes.mjs';
import { markdownTable, mib } from './report.mjs';
import { median } from './stats.mjs';
import { dataScenarios } from './scenario-data.mjs';
import { watchScenario } from './scenario-watch.mjs';
import { writeScenario } from './scenario-write.mjs';
import { scaleScenario } from './scenario-scale.mjs';
import { informerScenario } from './scenario-informer.mjs';
import { testingScenario } from './scenario-testing.mjs';

const USAGE = `Usage: pnpm bench [scenario...] [--quick | --full] [--backends=memory,sqlite,etcd3] [--json=FILE]
       pnpm bench [scenario...] [--quick | --full] [--backends=...] --record[=FILE] [--runs=N]
       pnpm bench --guard[=FILE] [--tolerance=0.2] [--confirm]

Scenarios (default: all): create (1), get (2), list (3), watch (4), memory (5), media (6), write (7), scale (8),
          informer (9: @kapi/client's and @kubernetes/client-node's informers, memory backend, HTTPS),
          testing-start (10: @kapi/testing's startTestServer(), in-process).
--quick   smaller counts, a few minutes (the default)
--full    the issue's counts: 10,000 creates, 100,000 stored, 50,000 listed, 10 s per load phase
--json    where to write the results (default bench/results/latest.json)
--record  also write the results to FILE (default bench/recorded.json), for --guard
--runs    with --record: N runs in all (default 1); each ratio recorded is the median of the N runs
--guard   rerun FILE's scenarios, backends and profile (default bench/recorded.json) and exit 1 when any ratio
          to a baseline is more than --tolerance (default 0.2, 20%) worse than recorded; only ratios are compared
--confirm with --guard: when a ratio fails, rerun the same scenarios once and fail only on ratios that fail twice
Run \`pnpm build\` first: this command builds nothing. KAPI_BENCH_CHECKOUT=DIR measures DIR's built server instead
(another worktree), with this checkout's benchmark code: two commits measured the same way.
`;

// ---------------------------------------------------------------------------------------------- arguments
// `--record` and `--guard` take an optional `=FILE`: bare, they name bench/recorded.json.
const RECORDED = join(repoRoot, 'bench', 'recorded.json');
const argv = process.argv.slice(2).map((a) => (a === '--record' || a === '--guard' ? `${a}=${RECORDED}` : a));
const { values: flags, positionals } = parseArgs({
  args: argv,
  allowPositionals: true,
  options: {
    quick: { type: 'boolean' },
    full: { type: 'boolean' },
    backends: { type: 'string' },
    json: { type: 'string' },
    record: { type: 'string' },
    guard: { type: 'string' },
    tolerance: { type: 'string' },
    confirm: { type: 'boolean' },
    runs: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const cwdPath = (file) => resolve(process.env.INIT_CWD ?? process.cwd(), file);
if (flags.quick && flags.full) fail('--quick and --full exclude each other');
if (flags.guard !== undefined && flags.record !== undefined) fail('--guard and --record exclude each other');
let recorded;
if (flags.guard !== undefined) {
  // The guard reruns exactly what was recorded: its scenarios, backends and profile.
  if (positionals.length || flags.backends || flags.quick || flags.full) fail('--guard reruns the recorded scenarios, backends and profile: give none of them');
  try {
    recorded = readRecorded(cwdPath(flags.guard));
  } catch (error) {
    fail(`--guard: ${error.message}`);
  }
  positionals.push(...recorded.scenarios);
  flags.backends = recorded.backends.join(',');
  flags.full = recorded.profile.name === 'full';
}
if (flags.runs !== undefined && (flags.record === undefined || !(Number.isInteger(Number(flags.runs)) && Number(flags.runs) >= 1))) fail('--runs=N (N ≥ 1) goes with --record');
if (flags.confirm && flags.guard === undefined) fail('--confirm goes with --guard');
const tolerance = flags.tolerance === undefined ? DEFAULT_TOLERANCE : Number(flags.tolerance);
if (!(tolerance > 0 && tolerance < 1)) fail('--tolerance must be between 0 and 1');
const profileName = flags.full ? 'full' : 'quick';
const P = PROFILES[profileName];
const wanted = new Set();
for (const name of positionals) {
  const key = Object.entries(SCENARIOS).find(([k, n]) => k === name || n === name)?.[0];
  if (!key) fail(`unknown scenario "${name}"\n\n${USAGE}`);
  wanted.add(key);
}
if (wanted.size === 0) for (const k of Object.keys(SCENARIOS)) wanted.add(k);
let backends = (flags.backends ?? BACKENDS.join(',')).split(',').filter(Boolean);
for (const b of backends) if (!BACKENDS.includes(b)) fail(`unknown backend "${b}" (${BACKENDS.join(', ')})`);
const jsonPath = cwdPath(flags.json ?? join(repoRoot, 'bench', 'results', 'latest.json'));

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

function machine() {
  // The commit of the server measured (KAPI_BENCH_CHECKOUT's when it names another checkout).
  const git = (...args) => spawnSync('git', args, { cwd: serverCheckout, encoding: 'utf8' }).stdout?.trim();
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

// Without etcd on PATH, B4 and the etcd3 rows are skipped, and the output says so.
const etcdBin = backends.includes('etcd3') || wanted.has('create') ? etcdBinary() : undefined;
const skipped = [];
if (!etcdBin && (backends.includes('etcd3') || wanted.has('create'))) {
  skipped.push('etcd is not on PATH (Debian: etcd-server): B4 and the etcd3 rows were skipped');
  backends = backends.filter((b) => b !== 'etcd3');
}
configure({
  profile: P,
  wanted,
  mediaBackend: backends.includes('memory') ? 'memory' : backends[0],
  results: { meta: machine(), profile: { name: profileName, ...P }, scenarios: [...wanted], backends, baselines: {}, runs: [], skipped, errors: [] },
});

async function main() {
  log(`kapi bench (${profileName}): scenarios ${[...wanted].join(', ')}; node ${process.version}, ${os.availableParallelism()} CPUs`);
  for (const note of skipped) log(note);
  let etcd;
  if (etcdBin) {
    etcd = await startEtcd();
    log(`etcd: ${etcd.version} on ${etcd.endpoint}`);
  }

  if (want('list') || want('media')) await baselineCodecs().catch((e) => errorRow('B3', 'codecs', 'in-process', e));
  if (want('get') || want('media') || want('create')) await baselineHttp().catch((e) => errorRow('B1/B2/B5', 'bare node:http', '—', e));
  if (want('create') && etcd) await baselineEtcd(etcd).catch((e) => errorRow('B4', 'raw etcd', 'etcd', e));

  for (const backend of backends) {
    await dataScenarios(backend, etcd).catch((e) => errorRow('1–6', 'data scenarios', backend, e));
  }
  if (want('watch')) {
    for (const backend of backends) await watchScenario(backend, etcd).catch((e) => errorRow('4', 'watch', backend, e));
  }
  if (want('write')) {
    for (const backend of backends) await writeScenario(backend, etcd).catch((e) => errorRow('7', 'writes', backend, e));
  }
  if (want('scale')) {
    if (etcd && backends.includes('etcd3')) await scaleScenario(etcd).catch((e) => errorRow('8', 'several processes', 'etcd3', e));
    else skipped.push('scenario 8 (several processes) runs on etcd3 only: add etcd3 to --backends');
  }
  if (want('informer')) {
    if (backends.includes('memory')) await informerScenario().catch((e) => errorRow('9', 'informers', 'memory', e));
    else skipped.push('scenario 9 (informers) runs on memory only: add memory to --backends');
  }
  if (want('testing-start')) await testingScenario().catch((e) => errorRow('10', 'startTestServer()', 'memory', e));
  if (etcd) await etcd.stop();
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
results.ratios = ratiosOf(results);
mkdirSync(dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`\n${header.join('\n')}\n\n${results.table}\n\nresults: ${jsonPath}\n`);
if (flags.record !== undefined) {
  const runs = Number(flags.runs ?? 1);
  if (runs > 1) results.ratios = medianRatios([results.ratios, ...moreRuns(runs - 1)]);
  const recordPath = cwdPath(flags.record);
  mkdirSync(dirname(recordPath), { recursive: true });
  writeFileSync(recordPath, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`recorded for --guard: ${recordPath} (${results.ratios.length} ratios${runs > 1 ? `, each the median of ${runs} runs` : ''})\n`);
}
let regressed = 0;
if (recorded) {
  const firstRun = compareRatios(recorded.ratios, results.ratios, tolerance);
  const confirmation = flags.confirm && firstRun.some((c) => c.regressed) ? confirm(firstRun) : undefined;
  const comparison = confirmation?.comparison ?? firstRun;
  regressed = comparison.filter((c) => c.regressed).length;
  // Ratios survive a slower machine better than absolute figures, but not other work competing for the cores
  // in the middle of a run: both load averages are printed so a reader can tell.
  const loads = (meta) => `load average at start ${load(meta?.loadAverageAtStart ?? [])}, at end ${load(meta?.loadAverageAtEnd ?? [])}`;
  process.stdout.write(`\nguard against ${cwdPath(flags.guard)} (recorded ${recorded.meta?.date} at commit ${recorded.meta?.commit}):\n`);
  process.stdout.write(`recorded: ${loads(recorded.meta)}; now: ${loads(m)}\n\n${guardTable(firstRun, tolerance)}\n\n`);
  if (confirmation) process.stdout.write(`confirming run (a ratio fails the guard only when it failed in both runs):\n\n${confirmation.table}\n\n`);
  for (const c of comparison.filter((x) => x.regressed)) {
    process.stdout.write(`REGRESSION: ${c.key}: ${c.current === undefined ? 'not measured this time' : `${c.recorded.toPrecision(3)} → ${c.current.toPrecision(3)}`}\n`);
  }
  process.stdout.write(regressed ? `guard: ${regressed} of ${comparison.length} ratios regressed\n` : `guard: all ${comparison.length} ratios within ${Math.round(tolerance * 100)}% of the recorded ones\n`);
}
killAll();
process.exit(results.errors.length || regressed ? 1 : 0);

/**
 * `--confirm`: one more run of the same scenarios (a child process, an ordinary run writing its JSON to a temporary
 * file); a ratio stays regressed only when it is also more than the tolerance worse in that run. On a shared machine
 * a single quick phase moves by 10–20% on its own; two in a row rarely do.
 */
function confirm(first) {
  log(`\nguard: ${first.filter((c) => c.regressed).length} ratios regressed; confirming with a second run`);
  const second = compareRatios(recorded.ratios, moreRuns(1)[0] ?? [], tolerance);
  const byKey = new Map(second.map((c) => [c.key, c]));
  const both = first.map((c) => ({ ...c, regressed: c.regressed && (byKey.get(c.key)?.regressed ?? true), confirmedBy: byKey.get(c.key) }));
  return { comparison: both, table: guardTable(second, tolerance) };
}

/**
 * `n` more runs of this run's scenarios, backends and profile, one after another, each an ordinary run in a child
 * process writing its JSON to a temporary file: the ratios of each (a run that left no results is left out).
 */
function moreRuns(n) {
  killAll();
  const out = [];
  for (let i = 0; i < n; i++) {
    const file = join(os.tmpdir(), `kapi-bench-again-${process.pid}-${i}.json`);
    const args = [join(repoRoot, 'bench', 'src', 'run.mjs'), ...wanted, `--backends=${backends.join(',')}`, `--${profileName}`, `--json=${file}`];
    log(`bench: again (${i + 1} of ${n}): node ${args.join(' ')}`);
    const child = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      out.push(JSON.parse(readFileSync(file, 'utf8')).ratios ?? []);
    } catch (error) {
      log(`bench: that run (exit ${child.status}) left no results: ${error.message}`);
    }
    rmSync(file, { force: true });
  }
  return out;
}

/** Per key, the median of the runs' ratios (with every run's value kept in `runs`). */
function medianRatios(runs) {
  const byKey = new Map();
  for (const ratios of runs) for (const r of ratios) (byKey.get(r.key) ?? byKey.set(r.key, { ...r, runs: [] }).get(r.key)).runs.push(r.value);
  return [...byKey.values()].map((r) => ({ ...r, value: median(r.runs) }));
}
