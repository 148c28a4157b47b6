#!/usr/bin/env node
// Where a request's CPU goes: the top entries of a CPU profile of kapi-server under one kind of load.
//
//   node bench/src/profile.mjs [get|create|update|patch|apply|list] [--server=CHECKOUT] [--backend=memory|sqlite] [--fresh] [--requests=N] [--top=N] [--save=FILE] [--heap]
//
// Starts CHECKOUT's built server (default: this checkout) on the memory backend (or `--backend`), drives the load
// (after a warm-up), and profiles only the measured part: the V8 profiler is started and stopped through the
// inspector (turned on with SIGUSR1), so start-up and the warm-up are left out. Updates, patches and applies go round
// 1,000 ConfigMaps, or with `--fresh` each to a ConfigMap not written since its create (scenario 7's shape). Prints the functions with the most self time, as a Markdown
// table, and the server's CPU per request; `--save` keeps the .cpuprofile (open it in Chrome's DevTools). `--heap`
// samples allocations instead (V8's sampling heap profiler, counting objects the GC has freed too): the memory
// allocated per request and the functions that allocate most (`--save` keeps the .heapprofile).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool, WebSocket } from 'undici';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { server: { type: 'string' }, requests: { type: 'string' }, top: { type: 'string' }, save: { type: 'string' }, heap: { type: 'boolean' }, backend: { type: 'string' }, fresh: { type: 'boolean' } },
});
const MODES = ['get', 'create', 'update', 'patch', 'apply', 'list'];
const mode = positionals[0] ?? 'get';
if (!MODES.includes(mode)) {
  process.stderr.write(`profile: unknown load "${mode}" (${MODES.join(', ')})\n`);
  process.exit(2);
}
const checkout = resolve(flags.server ?? join(import.meta.dirname, '../..'));
const requests = Number(flags.requests ?? (mode === 'list' ? 60 : mode === 'get' ? 40_000 : 8_000));
const top = Number(flags.top ?? 20);
const CONNECTIONS = mode === 'get' ? 64 : mode === 'list' ? 4 : 32;
const LISTED = 5_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const data = 'x'.repeat(1000);
const configMap = (name, value = '1') => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { app: 'bench' } }, data: { a: data, v: value } });
const json = { 'content-type': 'application/json', accept: 'application/json' };
const CM = '/api/v1/namespaces/default/configmaps';

/** The objects the updates, patches and applies go round (32 in flight never touch the same one: no conflicts). */
const WRITTEN = 1_000;
/** With --fresh, each write goes to an object of its own, created before and not written since (as in scenario 7). */
const fresh = !!flags.fresh && !['get', 'create', 'list'].includes(mode);

/** One request of the load, by its index. */
function requestOf(i, prefix) {
  const name = fresh ? `${prefix}w${i}` : `w${i % WRITTEN}`;
  switch (mode) {
    case 'get': return { method: 'GET', path: `${CM}/x`, headers: { accept: 'application/json' } };
    case 'create': return { method: 'POST', path: CM, headers: json, body: configMap(`${prefix}${i}`) };
    case 'update': return { method: 'PUT', path: `${CM}/${name}`, headers: json, body: configMap(name, String(i)) };
    case 'patch': return { method: 'PATCH', path: `${CM}/${name}`, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { v: String(i) } }) };
    case 'apply': return { method: 'PATCH', path: `${CM}/${name}?fieldManager=bench&force=true`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: configMap(name, String(i)) };
    case 'list': return { method: 'GET', path: CM, headers: { accept: 'application/json' } };
  }
}

async function load(pool, n, prefix) {
  let next = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (next < n) {
      const res = await pool.request(requestOf(next++, prefix));
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`${mode}: ${res.statusCode}`);
    }
  }));
}

/** A small client of the inspector protocol: `call(method, params)` resolves with the result. */
async function inspector(url) {
  const ws = new WebSocket(url);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = () => fail(new Error('inspector: connection failed'));
  });
  let id = 0;
  const pending = new Map();
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.id && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  };
  return {
    call: (method, params = {}) => new Promise((ok, fail) => {
      pending.set(++id, (msg) => (msg.error ? fail(new Error(msg.error.message)) : ok(msg.result)));
      ws.send(JSON.stringify({ id, method, params }));
    }),
    close: () => ws.close(),
  };
}

/** Where a frame is: a package's bundle by its package (`apiserver/dist/index.js:120`), Node's own modules by name. */
function whereOf(callFrame) {
  const file = callFrame.url ? `${callFrame.url.replace(/^file:\/\//, '').split('/').slice(-3).join('/')}:${callFrame.lineNumber + 1}` : '';
  return callFrame.url.includes('/node_modules/') ? callFrame.url.replace(/.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+).*/, '$1') : file;
}

/** A sampling heap profile's bytes per request, and the functions that allocated most (KiB per request). */
function topAllocations(profile, requests, n) {
  const self = new Map();
  let total = 0;
  const visit = (node) => {
    const key = `${node.callFrame.functionName || '(anonymous)'}\t${whereOf(node.callFrame)}`;
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const entries = [...self].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, bytes]) => [...key.split('\t'), bytes / requests / 1024]);
  return { perRequest: total / requests, entries };
}

/** The functions with the most self time (idle excluded), with their share of the profile. */
function topEntries(profile, n) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const { callFrame } = byId.get(profile.samples[i]);
    if (callFrame.functionName === '(idle)') continue;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const key = `${callFrame.functionName || '(anonymous)'}\t${whereOf(callFrame)}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, t]) => [...key.split('\t'), (100 * t) / total]);
}

const dataDir = mkdtempSync(join(tmpdir(), 'kapi-profile-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const origin = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [
  '--inspect-port=127.0.0.1:0', join(checkout, 'apps/server/dist/main.js'), '--bind-address=127.0.0.1', '--secure-port=0',
  `--insecure-port=${port}`, `--storage-backend=${flags.backend ?? 'memory'}`, `--data-dir=${dataDir}`, '--write-kubeconfig=', '--authorization-mode=AlwaysAllow',
], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const pool = new Pool(origin, { connections: CONNECTIONS });
try {
  for (let i = 0; !(await fetch(`${origin}/readyz`).then((r) => r.ok, () => false)); i++) {
    if (i > 300) throw new Error(`the server did not get ready:\n${stderr}`);
    await sleep(100);
  }
  // What the load reads or writes: one object to GET, the objects the writes go round, or the objects listed.
  const warmups = Math.ceil(requests / 4);
  const names = mode === 'get' ? ['x'] : mode === 'list' ? Array.from({ length: LISTED }, (_, i) => `l${i}`) : mode === 'create' ? []
    : fresh ? [...Array.from({ length: warmups }, (_, i) => `warm-w${i}`), ...Array.from({ length: requests }, (_, i) => `p-w${i}`)]
    : Array.from({ length: WRITTEN }, (_, i) => `w${i}`);
  let next = 0;
  const create = async () => {
    while (next < names.length) {
      const res = await pool.request({ method: 'POST', path: CM, headers: json, body: configMap(names[next++]) });
      await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, create));
  await load(pool, warmups, 'warm-');
  child.kill('SIGUSR1');
  let url;
  for (const until = Date.now() + 10_000; !(url = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1]); await sleep(20)) {
    if (Date.now() > until) throw new Error('the inspector did not start');
  }
  const session = await inspector(url);
  if (flags.heap) {
    await session.call('HeapProfiler.enable');
    await session.call('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  } else {
    await session.call('Profiler.enable');
    await session.call('Profiler.start');
  }
  const before = cpuSeconds(child.pid);
  const started = performance.now();
  await load(pool, requests, 'p-');
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(child.pid) - before;
  const { profile } = await session.call(flags.heap ? 'HeapProfiler.stopSampling' : 'Profiler.stop');
  session.close();
  if (flags.save) writeFileSync(flags.save, JSON.stringify(profile));
  const what = mode === 'list' ? `LIST of ${LISTED.toLocaleString('en')} ConfigMaps` : `${mode} of a 1 KiB ConfigMap`;
  if (flags.heap) {
    const { perRequest, entries } = topAllocations(profile, requests, top);
    console.log(`${what}, ${requests.toLocaleString('en')} requests on ${CONNECTIONS} connections: ${(perRequest / 1024).toFixed(1)} KiB allocated per request (sampled)\n`);
    console.log('| # | KiB per request | function | where |\n| --- | --- | --- | --- |');
    entries.forEach(([fn, where, kib], i) => console.log(`| ${i + 1} | ${kib.toFixed(2)} | \`${fn}\` | ${where} |`));
  } else {
    console.log(`${what}, ${requests.toLocaleString('en')} requests on ${CONNECTIONS} connections: ${(requests / seconds).toFixed(0)}/s, server CPU ${((cpu * 1e6) / requests).toFixed(0)} µs per request (profiler on)\n`);
    console.log('| # | self | function | where |\n| --- | --- | --- | --- |');
    topEntries(profile, top).forEach(([fn, where, pct], i) => console.log(`| ${i + 1} | ${pct.toFixed(1)}% | \`${fn}\` | ${where} |`));
  }
} finally {
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
