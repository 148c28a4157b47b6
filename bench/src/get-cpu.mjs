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
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';

const flags = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')));
const checkouts = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!checkouts.length) checkouts.push(resolve(import.meta.dirname, '../..'));
const rounds = Number(flags.rounds ?? 8);
const cycles = Number(flags.cycles ?? 3);
const PER_ROUND = 20_000;
const CONNECTIONS = 16;

/** CPU seconds the process has used (utime + stime, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measure(spec) {
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
  try {
    for (let i = 0; ; i++) {
      const ready = await fetch(`${origin}/readyz`).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (i > 300) throw new Error(`server in ${checkout} did not get ready:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: '1' } };
    const created = await pool.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body: JSON.stringify(configMap) });
    await created.body.dump();
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode}`);
    const load = async (n) => {
      let sent = 0;
      const worker = async () => {
        while (sent++ < n) {
          const res = await pool.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/x', headers: { accept: 'application/json' } });
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`GET: ${res.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    };
    await load(PER_ROUND);
    const perGet = [];
    for (let round = 0; round < rounds; round++) {
      const before = cpuSeconds(child.pid);
      await load(PER_ROUND);
      perGet.push(((cpuSeconds(child.pid) - before) * 1e6) / PER_ROUND);
    }
    return perGet.sort((a, b) => a - b);
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
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
