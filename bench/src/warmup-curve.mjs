#!/usr/bin/env node
// How long a new server takes to warm up: its CPU per create, batch after batch, from its first requests.
//
//   node bench/src/warmup-curve.mjs [--backend=memory|sqlite] [--batches=8] [--batch=2000] [--first=500]
//
// Starts this checkout's built server as the bench does, makes `first` creates, then `batches` batches of `batch`
// creates, each measured as scenario 1 measures its creates (the same driver: 1 KiB ConfigMaps at 32 concurrent),
// and prints each batch's creates/s, server CPU per create (all threads) and latency (p50, p99). A batch's figure
// falls while V8 still compiles the server's hot paths; where it levels off is how many unmeasured creates a
// benchmark needs before it measures (the profiles' `warmup` in config.mjs).
import { parseArgs } from 'node:util';
import { checkErrors, createNamespaces, createTask, fill, measured } from './context.mjs';
import { killAll, startKapi, stop, tempDir } from './processes.mjs';

const { values: flags } = parseArgs({
  options: { backend: { type: 'string' }, batches: { type: 'string' }, batch: { type: 'string' }, first: { type: 'string' } },
});
const backend = flags.backend ?? 'memory';
const batches = Number(flags.batches ?? 8);
const size = Number(flags.batch ?? 2_000);
const first = Number(flags.first ?? 500);

const srv = await startKapi({ backend, dataDir: tempDir(`kapi-warmup-${backend}-`) });
try {
  console.log(`${backend}: ${first} creates, then ${batches} batches of ${size}`);
  await createNamespaces(srv.origin, ['bench']);
  await fill(srv, 'bench', 0, first);
  for (let b = 0; b < batches; b++) {
    const start = first + b * size;
    const { result, usage } = await measured([srv.pid], createTask(srv.origin, 'bench', start, size, 300), 360_000);
    checkErrors('create', result);
    const perCreate = (usage[0].cpuSeconds / result.ops) * 1e6;
    console.log(`batch ${b + 1} (creates ${start + 1}-${start + size}): ${Math.round(result.opsPerSec)}/s, ${Math.round(perCreate)} µs of server CPU per create, p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms`);
  }
} finally {
  await stop(srv.child);
  killAll();
}
