#!/usr/bin/env node
// One kind watched in two versions (issue 20): 100 watchers of wardle's Flunders, half in v1alpha1 and half in
// v1beta1 (the storage version), while Flunders are created and updated. Reports how many times the server encoded
// each live event (kapi_watch_event_encodings_total) against the events it sent (apiserver_watch_events_total):
// the target is one encoding per version and media type, however many watchers get the event.
//
//   pnpm build && node bench/src/versions.mjs [--watchers=100] [--objects=500] [--backend=memory]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './proc.mjs';
import { killAll, startKapi, stop, tempDir } from './processes.mjs';

const { values: flags } = parseArgs({
  options: { watchers: { type: 'string', default: '100' }, objects: { type: 'string', default: '500' }, backend: { type: 'string', default: 'memory' } },
});
const WATCHERS = Number(flags.watchers);
const OBJECTS = Number(flags.objects);
const VERSIONS = ['v1alpha1', 'v1beta1'];
const path = (version) => `/apis/wardle.example.com/${version}/namespaces/default/flunders`;
const flunder = (name, n) => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name, labels: { n: String(n) } },
  spec: { reference: `fischer-${n}`, referenceType: 'Fischer' },
});

/** Opens a watch and counts the events it receives until `expected` have arrived. */
function watch(origin, version, resourceVersion, expected, abort) {
  let seen = 0;
  let buffered = '';
  const done = (async () => {
    const res = await fetch(`${origin}${path(version)}?watch=1&resourceVersion=${resourceVersion}&allowWatchBookmarks=false`, { signal: abort.signal });
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const event = JSON.parse(line);
        if (event.object.apiVersion !== `wardle.example.com/${version}`) throw new Error(`a ${version} watcher got ${event.object.apiVersion}`);
        if (++seen === expected) return;
      }
    }
  })();
  return { done, seen: () => seen };
}

/** The value of a counter series from /metrics, by label values. */
async function counter(origin, name, labels) {
  const text = await (await fetch(`${origin}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
process.on('SIGINT', () => { killAll(); process.exit(130); });

const srv = await startKapi({ backend: flags.backend, dataDir: tempDir('kapi-bench-versions-') });
try {
  const list = await (await fetch(`${srv.origin}${path('v1beta1')}`)).json();
  const abort = new AbortController();
  const expected = OBJECTS * 2; // one ADDED and one MODIFIED per object
  const watchers = Array.from({ length: WATCHERS }, (_, i) => watch(srv.origin, VERSIONS[i % 2], list.metadata.resourceVersion, expected, abort));
  await new Promise((r) => setTimeout(r, 500));
  const before = Object.fromEntries(await Promise.all(VERSIONS.map(async (v) => [v, {
    encodings: await counter(srv.origin, 'kapi_watch_event_encodings_total', { version: v, kind: 'Flunder' }),
    events: await counter(srv.origin, 'apiserver_watch_events_total', { version: v, kind: 'Flunder' }),
  }])));
  const cpu0 = cpuSeconds(srv.pid);
  const t0 = performance.now();
  const post = (body) => fetch(`${srv.origin}${path('v1alpha1')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (let i = 0; i < OBJECTS; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, OBJECTS - i) }, async (_, j) => {
      const n = i + j;
      const res = await post(flunder(`f-${n}`, n));
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      const patch = await fetch(`${srv.origin}${path('v1beta1')}/f-${n}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { labels: { touched: 'yes' } } }),
      });
      if (patch.status !== 200) throw new Error(`patch: ${patch.status} ${await patch.text()}`);
    }));
  }
  await Promise.all(watchers.map((w) => w.done));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(srv.pid) - cpu0;
  abort.abort();
  console.log(`${WATCHERS} watchers (${WATCHERS / 2} per version) of ${OBJECTS} Flunders created in v1alpha1 and patched in v1beta1 (${expected} events each), ${flags.backend} backend`);
  console.log('');
  console.log('| version | events sent | encodings | encodings per event | watchers per encoding |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const v of VERSIONS) {
    const events = (await counter(srv.origin, 'apiserver_watch_events_total', { version: v, kind: 'Flunder' })) - before[v].events;
    const encodings = (await counter(srv.origin, 'kapi_watch_event_encodings_total', { version: v, kind: 'Flunder' })) - before[v].encodings;
    console.log(`| ${v} | ${fmt(events)} | ${fmt(encodings)} | ${fmt(encodings / expected, 2)} | ${fmt(events / encodings, 1)} |`);
  }
  console.log('');
  console.log(`${fmt((expected * WATCHERS) / seconds)} events delivered per second; server CPU ${fmt(cpu, 2)} s for ${fmt(OBJECTS * 2)} writes and ${fmt(expected * WATCHERS)} deliveries`);
} finally {
  await stop(srv.child);
  killAll();
}
