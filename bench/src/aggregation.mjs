#!/usr/bin/env node
// GET and watch through the aggregator, next to the same requests sent straight to the extension (issue 21), in
// one run: kapi-server (memory backend) in front of wardle-server (memory backend) registered with
// apps/wardle-server/deploy/. Both paths use HTTPS with keep-alive and the same identity: through the aggregator as
// the admin (client certificate from admin.kubeconfig), straight to wardle-server with the main server's
// front-proxy client certificate and X-Remote-User/X-Remote-Group naming that admin, which is what the aggregator
// sends. GET: one Flunder, fetched at a fixed concurrency. Watch: two watches open at once (one through the
// aggregator, one straight), then Flunders created one at a time on wardle-server; the latency is from the create's
// answer to the event's arrival on each watch. All processes share the machine's cores.
//
//   pnpm build && node bench/src/aggregation.mjs [--gets=5000] [--concurrency=16] [--events=500]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { freePort, waitForReady, captureOutput } from '@kapi/storage-etcd/testing';
import { cpuSeconds } from './proc.mjs';
import { killAll, repoRoot, serverMain, stop, tempDir } from './processes.mjs';
import { Histogram } from './stats.mjs';

const { values: flags } = parseArgs({ options: { gets: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '16' }, events: { type: 'string', default: '500' } } });
const GETS = Number(flags.gets);
const CONCURRENCY = Number(flags.concurrency);
const EVENTS = Number(flags.events);
const FLUNDERS = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
const children = [];

async function startProcess(main, args, what) {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: repoRoot });
  children.push(child);
  const output = captureOutput(child, 32_000);
  await waitForReady(child, () => /listening on https:/.test(output()), { what, timeoutMs: 120_000, output, intervalMs: 20 });
  return child;
}

/** One HTTPS request; resolves with status and body text. */
function send(agent, origin, method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, origin), { agent, method, headers: { accept: 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A watch whose events are timed on arrival, by object name. */
function watch(agent, origin, headers) {
  const arrivals = new Map();
  let buffered = '';
  return new Promise((resolve, reject) => {
    const req = request(new URL(`${FLUNDERS}?watch=1&allowWatchBookmarks=false`, origin), { agent, headers: { accept: 'application/json', ...headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const now = performance.now();
        buffered += chunk;
        let nl;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim()) arrivals.set(JSON.parse(line).object.metadata.name, now);
        }
      });
      resolve({ arrivals, close: () => req.destroy() });
    });
    req.on('error', (e) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}

async function gets(agent, origin, headers) {
  const hist = new Histogram();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < GETS) {
      const started = performance.now();
      const res = await send(agent, origin, 'GET', `${FLUNDERS}/target`, headers);
      if (res.status !== 200) throw new Error(`get: ${res.status} ${res.text}`);
      hist.record(performance.now() - started);
    }
  }));
  return { seconds: (performance.now() - t0) / 1000, ...hist.summary() };
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
process.on('SIGINT', () => { killAll(); for (const c of children) c.kill('SIGKILL'); process.exit(130); });

const dir = tempDir('kapi-bench-aggregation-');
const mainPort = await freePort();
const wardlePort = await freePort();
const mainChild = await startProcess(serverMain, [`--data-dir=${join(dir, 'main')}`, `--secure-port=${mainPort}`, '--bind-address=127.0.0.1', '--storage-backend=memory'], 'kapi-server');
const kubeconfig = join(dir, 'main', 'admin.kubeconfig');
for (let i = 0; i < 100 && !readdirSync(join(dir, 'main')).includes('admin.kubeconfig'); i++) await new Promise((r) => setTimeout(r, 50));
const wardleChild = await startProcess(join(repoRoot, 'apps/wardle-server/dist/main.js'), [`--data-dir=${join(dir, 'wardle')}`, `--secure-port=${wardlePort}`, '--storage-backend=memory', `--kubeconfig=${kubeconfig}`], 'wardle-server');
try {
  const deploy = join(dir, 'deploy');
  mkdirSync(deploy);
  for (const f of readdirSync(join(repoRoot, 'apps/wardle-server/deploy'))) {
    writeFileSync(join(deploy, f), readFileSync(join(repoRoot, 'apps/wardle-server/deploy', f), 'utf8').replaceAll('port: 8443', `port: ${wardlePort}`));
  }
  const kubectl = (...args) => {
    const res = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
  };
  kubectl('apply', '-f', deploy);
  kubectl('wait', '--for=condition=Available', 'apiservice/v1alpha1.wardle.example.com', '--timeout=60s');

  const config = parseYaml(readFileSync(kubeconfig, 'utf8'));
  const user = config.users[0].user;
  const cluster = config.clusters[0].cluster;
  const viaAggregator = new Agent({ keepAlive: true, maxSockets: CONCURRENCY + 1, ca: Buffer.from(cluster['certificate-authority-data'], 'base64'), cert: Buffer.from(user['client-certificate-data'], 'base64'), key: Buffer.from(user['client-key-data'], 'base64') });
  const straight = new Agent({ keepAlive: true, maxSockets: CONCURRENCY + 1, rejectUnauthorized: false, cert: readFileSync(join(dir, 'main', 'front-proxy-client.crt')), key: readFileSync(join(dir, 'main', 'front-proxy-client.key')) });
  const mainOrigin = `https://127.0.0.1:${mainPort}`;
  const wardleOrigin = `https://127.0.0.1:${wardlePort}`;
  const admin = { 'x-remote-user': 'kapi-admin', 'x-remote-group': 'system:masters' };
  const create = (name) => send(straight, wardleOrigin, 'POST', FLUNDERS, { ...admin, 'content-type': 'application/json' }, JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name } }));
  if ((await create('target')).status !== 201) throw new Error('could not create the target flunder');

  const rows = [];
  for (const [name, agent, origin, headers] of [['through the aggregator', viaAggregator, mainOrigin, {}], ['straight to wardle-server', straight, wardleOrigin, admin]]) {
    await gets(agent, origin, headers); // warm-up, not reported
    const cpuMain = cpuSeconds(mainChild.pid);
    const cpuWardle = cpuSeconds(wardleChild.pid);
    const r = await gets(agent, origin, headers);
    rows.push({ name, ...r, cpuMain: cpuSeconds(mainChild.pid) - cpuMain, cpuWardle: cpuSeconds(wardleChild.pid) - cpuWardle });
  }

  const w1 = await watch(viaAggregator, mainOrigin, {});
  const w2 = await watch(straight, wardleOrigin, admin);
  const answered = new Map();
  for (let i = 0; i < EVENTS; i++) {
    const res = await create(`e${i}`);
    if (res.status !== 201) throw new Error(`create: ${res.status}`);
    answered.set(`e${i}`, performance.now());
  }
  for (let i = 0; i < 200 && (w1.arrivals.size < EVENTS + 1 || w2.arrivals.size < EVENTS + 1); i++) await new Promise((r) => setTimeout(r, 25));
  const latency = (w) => {
    const hist = new Histogram();
    for (const [name, at] of answered) if (w.arrivals.has(name)) hist.record(Math.max(0, w.arrivals.get(name) - at));
    return hist.summary();
  };
  const watchRows = [['through the aggregator', latency(w1)], ['straight to wardle-server', latency(w2)]];
  w1.close();
  w2.close();

  console.log(`GET of one Flunder, ${fmt(GETS)} requests at concurrency ${CONCURRENCY}, HTTPS keep-alive, memory backends, one machine`);
  console.log('');
  console.log('| path | GETs/s | p50 ms | p90 ms | p99 ms | kapi-server CPU ms per GET | wardle-server CPU ms per GET |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.name} | ${fmt(r.count / r.seconds)} | ${fmt(r.p50, 2)} | ${fmt(r.p90, 2)} | ${fmt(r.p99, 2)} | ${fmt((r.cpuMain * 1000) / r.count, 3)} | ${fmt((r.cpuWardle * 1000) / r.count, 3)} |`);
  console.log('');
  console.log(`Watch event latency, ${fmt(EVENTS)} Flunders created one at a time on wardle-server (from the create's answer to the event)`);
  console.log('');
  console.log('| watch | events | p50 ms | p90 ms | p99 ms |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, s] of watchRows) console.log(`| ${name} | ${fmt(s.count)} | ${fmt(s.p50, 2)} | ${fmt(s.p90, 2)} | ${fmt(s.p99, 2)} |`);
} finally {
  await stop(wardleChild);
  await stop(mainChild);
  killAll();
}
