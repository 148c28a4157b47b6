#!/usr/bin/env node
// Custom resources next to ConfigMaps, in one run (issue 19): creates/s and GETs/s of a 1 KiB ConfigMap and of a
// custom resource of the same size (a CRD with a structural schema and one CEL rule), on the built kapi-server; then
// the time to apply the cert-manager and Gateway API CRD sets until every CRD is Established.
//
//   pnpm build && node bench/src/custom-resources.mjs [--backends=memory,sqlite] [--seconds=5]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { parse } from 'yaml';
import { configMapData } from './objects.mjs';
import { cpuSeconds } from './proc.mjs';
import { killAll, repoRoot, startKapi, stop, tempDir } from './processes.mjs';
import { Histogram } from './stats.mjs';

const { values: flags } = parseArgs({ options: { backends: { type: 'string', default: 'memory,sqlite' }, seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(flags.seconds);
const CRDS = join(repoRoot, 'packages', 'e2e', 'test', 'crds');

const GIZMOS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.bench.example.com' },
  spec: {
    group: 'bench.example.com',
    scope: 'Namespaced',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { data: {
        type: 'object', additionalProperties: { type: 'string', maxLength: 4096 }, maxProperties: 16,
        'x-kubernetes-validations': [{ rule: 'self.all(k, size(k) < 64)', message: 'keys are short' }],
      } } } },
    }],
  },
};

const kinds = {
  configmaps: { path: '/api/v1/namespaces/default/configmaps', body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: configMapData() }) },
  gizmos: { path: '/apis/bench.example.com/v1/namespaces/default/gizmos', body: (name) => ({ apiVersion: 'bench.example.com/v1', kind: 'Gizmo', metadata: { name }, data: configMapData() }) },
};

/** Closed-loop load: `concurrency` requests in flight for SECONDS; operations/s, latency, server CPU per 1,000. */
async function load(srv, concurrency, next) {
  const pool = new Pool(srv.origin, { connections: concurrency, keepAliveTimeout: 60_000 });
  const histogram = new Histogram();
  let ops = 0;
  let errors = 0;
  const cpu0 = cpuSeconds(srv.pid);
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      const { method, path, body } = next(ops++);
      const started = performance.now();
      const res = await pool.request({ method, path, body: body && JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } });
      await res.body.arrayBuffer();
      histogram.record(performance.now() - started);
      if (res.statusCode >= 300) errors++;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(srv.pid) - cpu0;
  await pool.close();
  const s = histogram.summary();
  return { opsPerSecond: s.count / seconds, p50: s.p50, p99: s.p99, cpuMsPer1000: (cpu * 1e6) / s.count, errors };
}

async function api(srv, method, path, body) {
  const res = await fetch(`${srv.origin}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Applies CRDs (creates) and waits until all are Established: milliseconds. */
async function applyCRDs(srv, files) {
  const crds = files.map((f) => parse(readFileSync(f, 'utf8')));
  const t0 = performance.now();
  for (const crd of crds) {
    const res = await api(srv, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (res.status !== 201) throw new Error(`${crd.metadata.name}: ${res.body.message}`);
  }
  for (;;) {
    const list = await api(srv, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    const established = list.body.items.filter((c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True')).map((c) => c.metadata.name);
    if (crds.every((c) => established.includes(c.metadata.name))) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const yamlIn = (dir) => readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(dir, f));
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const out = [];
process.on('SIGINT', () => { killAll(); process.exit(130); });

try {
  for (const backend of flags.backends.split(',')) {
    const srv = await startKapi({ backend, dataDir: tempDir('kapi-bench-crd-') });
    try {
      const certManager = await applyCRDs(srv, yamlIn(join(CRDS, 'cert-manager')));
      const gateway = await applyCRDs(srv, yamlIn(join(CRDS, 'gateway-api')));
      const crd = await api(srv, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', GIZMOS);
      if (crd.status !== 201) throw new Error(crd.body.message);
      for (;;) {
        if ((await api(srv, 'GET', kinds.gizmos.path)).status === 200) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // Warm-up: the validators compile on first use.
      for (const [k, kind] of Object.entries(kinds)) for (let i = 0; i < 200; i++) await api(srv, 'POST', kind.path, kind.body(`warm-${k}-${i}`));
      for (const [name, kind] of Object.entries(kinds)) {
        const create = await load(srv, 32, (i) => ({ method: 'POST', path: kind.path, body: kind.body(`c-${i}`) }));
        const get = await load(srv, 64, (i) => ({ method: 'GET', path: `${kind.path}/warm-${name}-${i % 200}` }));
        out.push({ backend, kind: name, create, get });
      }
      out.push({ backend, certManagerApplyMs: certManager, gatewayApplyMs: gateway });
    } finally {
      await stop(srv.child);
    }
  }
} finally {
  killAll();
}

console.log('| backend | kind | creates/s (32 conc.) | create p50 / p99 ms | server CPU ms per 1,000 creates | GETs/s (64 conc.) | GET p99 ms | errors |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of out.filter((x) => x.kind)) {
  console.log(`| ${r.backend} | ${r.kind} | ${fmt(r.create.opsPerSecond)} | ${fmt(r.create.p50, 1)} / ${fmt(r.create.p99, 1)} | ${fmt(r.create.cpuMsPer1000)} | ${fmt(r.get.opsPerSecond)} | ${fmt(r.get.p99, 1)} | ${r.create.errors + r.get.errors} |`);
}
console.log('');
for (const r of out.filter((x) => x.certManagerApplyMs)) {
  console.log(`${r.backend}: cert-manager's 6 CRDs created and Established in ${fmt(r.certManagerApplyMs)} ms; Gateway API's 10 in ${fmt(r.gatewayApplyMs)} ms`);
}
