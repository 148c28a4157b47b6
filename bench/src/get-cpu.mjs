// Server CPU per GET, for comparing builds of the request path (before and after a change) on a noisy machine.
//
//   node bench/src/get-cpu.mjs [checkout[::server-flag,...] ...] [--rounds=8] [--cycles=3]
//
// Each checkout (default: this one) must be built; `::` adds flags to its server, so one checkout can be compared
// with itself (`. .::--enable-priority-and-fairness=false`). Their servers run one at a time, alternating, `cycles` times:
// each serves the sample server's insecure port on the memory backend, gets one ConfigMap created, then 16 keep-alive
// connections GET it: a warm-up of 20,000, then `rounds` rounds of 20,000. A round's figure is the server process's
// CPU time (user + system, from /proc) divided by the GETs it served. Interference from other work only adds CPU
// time, so the lowest round is the steadiest figure; the median is printed beside it.
//
//   node bench/src/get-cpu.mjs before after --paired [--create] [--rounds=40] [--round-size=10000]
//
// runs the servers side by side instead and reports each round's ratio to the first checkout (see paired());
// `--create` measures creates of ConfigMaps instead of GETs; `--apply` server-side applies (scenario 7's: field
// manager "bench", force, one data value changed) of ConfigMaps of 1 KiB created just before, unmeasured, by another
// manager.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { configMapData } from './objects.mjs';

const flags = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')));
const checkouts = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!checkouts.length) checkouts.push(resolve(import.meta.dirname, '../..'));
const rounds = Number(flags.rounds ?? ('paired' in flags ? 40 : 8));
const cycles = Number(flags.cycles ?? 3);
const PER_ROUND = 20_000;
const CONNECTIONS = 16;
/** GETs per round with --paired: shorter rounds, many of them. */
/** `--create`: each request creates a ConfigMap instead of reading one (rounds of 2,000 by default). */
const CREATE = 'create' in flags;
const APPLY = 'apply' in flags;
const WRITES = CREATE || APPLY;
const PAIRED_ROUND = Number(flags['round-size'] ?? (WRITES ? 2_000 : 10_000));

/** CPU seconds the process has used (utime + stime, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts a checkout's server (`checkout::flags`) with one ConfigMap; `load(n)` GETs it n times over the pool. */
async function startServer(spec) {
  const [checkout, extra = ''] = spec.split('::');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-get-cpu-'));
  const args = [join(checkout, 'apps/server/dist/main.js'), '--bind-address=127.0.0.1', '--secure-port=0', `--insecure-port=${port}`];
  args.push('--storage-backend=memory', `--data-dir=${dataDir}`, '--write-kubeconfig=', '--authorization-mode=AlwaysAllow');
  args.push(...extra.split(',').filter(Boolean));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const origin = `http://127.0.0.1:${port}`;
  const pool = new Pool(origin, { connections: CONNECTIONS });
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: '1' } };
  const stop = async () => {
    await pool.close();
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      const ready = await fetch(`${origin}/readyz`).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (i > 300) throw new Error(`server in ${checkout} did not get ready:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = await pool.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body: JSON.stringify(configMap) });
    await created.body.dump();
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode}`);
  } catch (err) {
    await stop();
    throw err;
  }
  let made = 0;
  const applyData = configMapData(1024);
  const applied = (name, value) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { ...applyData, 'key-00': value } });
  /** With --apply: ConfigMaps a0.. created (by another manager) ahead of the applies, and the next one to apply. */
  let createdAhead = 0;
  let appliedNext = 0;
  const createAhead = async (n) => {
    const target = createdAhead + n;
    const worker = async () => {
      while (createdAhead < target) {
        const res = await pool.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body: applied(`a${createdAhead++}`, 'created') });
        await res.body.dump();
        if (res.statusCode !== 201) throw new Error(`POST: ${res.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  };
  const load = async (n) => {
    let sent = 0;
    const worker = async () => {
      while (sent++ < n) {
        if (APPLY) {
          const name = `a${appliedNext++}`;
          const res = await pool.request({
            method: 'PATCH',
            path: `/api/v1/namespaces/default/configmaps/${name}?fieldManager=bench&force=true`,
            headers: { accept: 'application/json', 'content-type': 'application/apply-patch+yaml' },
            body: applied(name, 'applied'),
          });
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`PATCH: ${res.statusCode}`);
          continue;
        }
        if (CREATE) {
          const body = JSON.stringify({ ...configMap, metadata: { name: `c${made++}`, namespace: 'default' } });
          const res = await pool.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { accept: 'application/json', 'content-type': 'application/json' }, body });
          await res.body.dump();
          if (res.statusCode !== 201) throw new Error(`POST: ${res.statusCode}`);
          continue;
        }
        const res = await pool.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/x', headers: { accept: 'application/json' } });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`GET: ${res.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  };
  /** Server CPU µs per GET of one round of `n` GETs. */
  const round = async (n) => {
    if (APPLY) await createAhead(n);
    const before = cpuSeconds(child.pid);
    await load(n);
    return ((cpuSeconds(child.pid) - before) * 1e6) / n;
  };
  return { spec, load, round, stop, createAhead };
}

async function measure(spec) {
  const server = await startServer(spec);
  try {
    if (APPLY) await server.createAhead(PER_ROUND);
    await server.load(PER_ROUND);
    const perGet = [];
    for (let i = 0; i < rounds; i++) perGet.push(await server.round(PER_ROUND));
    return perGet.sort((a, b) => a - b);
  } finally {
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `--paired`: every checkout's server runs at once, and each round loads them all at the same time, each with its
 * own 16 connections, so a slow spell of the machine hits a round's servers alike. The median of each round's
 * ratio to the first checkout is then much steadier than comparing lowest rounds of servers run one after another.
 */
async function paired() {
  const servers = [];
  try {
    for (const spec of checkouts) servers.push(await startServer(spec));
    for (const server of servers) {
      if (APPLY) await server.createAhead(2 * PAIRED_ROUND);
      await server.load(WRITES ? 2 * PAIRED_ROUND : PER_ROUND);
    }
    const perGet = servers.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const perServer = await Promise.all(servers.map((server) => server.round(PAIRED_ROUND)));
      perServer.forEach((v, i) => perGet[i].push(v));
    }
    console.log(`${rounds} paired rounds of ${PAIRED_ROUND} ${APPLY ? 'applies' : CREATE ? 'creates' : 'GETs'}, µs of server CPU per request:`);
    servers.forEach((server, i) => {
      const sorted = [...perGet[i]].sort((a, b) => a - b);
      let line = `  ${server.spec}: lowest ${sorted[0].toFixed(1)}, median ${median(sorted).toFixed(1)}`;
      if (i > 0) {
        const ratios = perGet[i].map((v, r) => v / perGet[0][r]).sort((a, b) => a - b);
        const q = (f) => ratios[Math.floor(f * (ratios.length - 1))];
        line += `; to ${servers[0].spec}, per round: median ${median(ratios).toFixed(3)} (quartiles ${q(0.25).toFixed(3)}–${q(0.75).toFixed(3)})`;
      }
      console.log(line);
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}

if ('paired' in flags) {
  await paired();
  process.exit(0);
}

const results = new Map(checkouts.map((c) => [c, []]));
for (let cycle = 0; cycle < cycles; cycle++) {
  for (const checkout of checkouts) {
    const perGet = await measure(checkout);
    results.get(checkout).push(perGet);
    console.log(`${checkout}: server CPU µs/GET lowest ${perGet[0].toFixed(1)}, median ${perGet[Math.floor(perGet.length / 2)].toFixed(1)}`);
  }
}
console.log('\nlowest round of each cycle, µs of server CPU per GET:');
for (const [checkout, runs] of results) console.log(`  ${checkout}: ${runs.map((r) => r[0].toFixed(1)).join(' / ')}`);
