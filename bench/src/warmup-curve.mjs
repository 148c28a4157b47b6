#!/usr/bin/env node
// How long a new server takes to warm up: its CPU per create, batch after batch, from its first requests.
//
//   node bench/src/warmup-curve.mjs [--backend=memory|sqlite] [--batches=8] [--batch=2000] [--first=500]
//
// Starts this checkout's built server (as the bench does: loopback, plain HTTP, AlwaysAllow, a temporary data dir),
// makes `first` creates, then `batches` batches of `batch` creates of 1 KiB ConfigMaps at 32 concurrent, and prints
// each batch's creates/s, server CPU per create (user + system from /proc, all threads) and latency (p50, p99). A batch's figure falls
// while V8 still compiles the server's hot paths; where it levels off is how many unmeasured creates a benchmark
// needs before it measures (the profiles' `warmup` in config.mjs).
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { configMapTemplate } from './objects.mjs';
import { killAll, startKapi, stop, tempDir } from './processes.mjs';
import { cpuSeconds } from './proc.mjs';
import { Histogram } from './stats.mjs';

const { values: flags } = parseArgs({
  options: { backend: { type: 'string' }, batches: { type: 'string' }, batch: { type: 'string' }, first: { type: 'string' } },
});
const backend = flags.backend ?? 'memory';
const batches = Number(flags.batches ?? 8);
const size = Number(flags.batch ?? 2_000);
const first = Number(flags.first ?? 500);
const CONCURRENCY = 32;

const srv = await startKapi({ backend, dataDir: tempDir(`kapi-warmup-${backend}-`) });
const pool = new Pool(srv.origin, { connections: CONCURRENCY });
const template = configMapTemplate('default');
let named = 0;

/** `n` creates at 32 concurrent, each of a ConfigMap of its own. */
async function creates(n, latency = new Histogram()) {
  let left = n;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (left-- > 0) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body: `${template.head}w${named++}${template.tail}` });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode}`);
      latency.record(performance.now() - t0);
    }
  }));
}

try {
  console.log(`${backend}: ${first} creates, then ${batches} batches of ${size}`);
  await creates(first);
  for (let b = 0; b < batches; b++) {
    const cpu0 = cpuSeconds(srv.pid);
    const t0 = performance.now();
    const latency = new Histogram();
    await creates(size, latency);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(srv.pid) - cpu0;
    console.log(`batch ${b + 1} (creates ${first + b * size + 1}-${first + (b + 1) * size}): ${Math.round(size / seconds)}/s, ${Math.round((cpu / size) * 1e6)} µs of server CPU per create, p50 ${latency.quantile(0.5).toFixed(1)} ms, p99 ${latency.quantile(0.99).toFixed(1)} ms`);
  }
} finally {
  await pool.close();
  await stop(srv.child);
  killAll();
}
