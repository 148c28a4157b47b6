#!/usr/bin/env node
// Garbage collection throughput (issue 23): how fast the collector removes the dependents of a deleted owner.
//
//   node bench/src/gc.mjs [--dependents=10000] [--backends=memory,sqlite] [--policy=Background|Foreground]
//
// Starts this checkout's built server per backend, creates one ConfigMap owner and N ConfigMaps that name it in
// ownerReferences (32 concurrent creates), deletes the owner with the propagation policy, and times until the last
// dependent is gone (a LIST every 50 ms). Prints dependents removed per second and the server's CPU per dependent.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startKapi, stop, tempDir } from './processes.mjs';

const { values } = parseArgs({ options: { dependents: { type: 'string' }, backends: { type: 'string' }, policy: { type: 'string' } } });
const N = Number(values.dependents ?? 10_000);
const backends = (values.backends ?? 'memory,sqlite').split(',');
const policy = values.policy ?? 'Background';
const CM = '/api/v1/namespaces/default/configmaps';
const json = { 'content-type': 'application/json', accept: 'application/json' };
const cpuSeconds = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

const rows = [];
for (const backend of backends) {
  const srv = await startKapi({ backend, dataDir: tempDir(`gc-${backend}`) });
  const pool = new Pool(srv.origin, { connections: 32 });
  const request = async (method, path, body) => {
    const res = await pool.request({ method, path, headers: json, body: body && JSON.stringify(body) });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const owner = await request('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true };
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (next < N) {
      const i = next++;
      await request('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `dep-${i}`, labels: { gc: 'bench' }, ownerReferences: [ref] }, data: { i: String(i) } });
    }
  }));
  const cpu0 = cpuSeconds(srv.pid);
  const t0 = performance.now();
  await request('DELETE', `${CM}/owner`, { propagationPolicy: policy });
  let left = N;
  while (left > 0) {
    await new Promise((r) => setTimeout(r, 50));
    // remainingItemCount counts those after the first page.
    const page = await request('GET', `${CM}?labelSelector=gc%3Dbench&limit=1`);
    left = page.items.length + (page.metadata.remainingItemCount ?? 0);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(srv.pid) - cpu0;
  rows.push({ backend, policy, dependents: N, seconds, perSecond: N / seconds, cpuMsPerDependent: (cpu * 1000) / N });
  await pool.close();
  await stop(srv.child);
}
console.log(`| backend | policy | dependents | time | dependents/s | server CPU per dependent |`);
console.log(`| --- | --- | --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.backend} | ${r.policy} | ${r.dependents.toLocaleString('en-US')} | ${r.seconds.toFixed(2)} s | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${r.cpuMsPerDependent.toFixed(2)} ms |`);
