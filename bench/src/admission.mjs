#!/usr/bin/env node
// Create latency with one no-op validating admission webhook, next to none (issue 22), in one run: ConfigMaps
// created at a fixed concurrency against the built sample server (memory backend, plain HTTP), first with no
// webhook, then with a ValidatingWebhookConfiguration whose one webhook (HTTPS, its own test CA, served by this
// driver) allows everything, then without it again. The webhook runs in this process, on the same cores.
//
//   pnpm build && node bench/src/admission.mjs [--creates=3000] [--concurrency=16]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './proc.mjs';
import { killAll, startKapi, stop, tempDir } from './processes.mjs';
import { Histogram } from './stats.mjs';

const { values: flags } = parseArgs({ options: { creates: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '16' } } });
const CREATES = Number(flags.creates);
const CONCURRENCY = Number(flags.concurrency);
const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

/** A CA and a certificate it signs for 127.0.0.1 (openssl). */
function pki() {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-pki-'));
  const run = (args) => {
    const res = spawnSync('openssl', args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(res.stderr);
  };
  const f = (n) => join(dir, n);
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=bench-ca', '-keyout', f('ca.key'), '-out', f('ca.pem')]);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=webhook', '-keyout', f('tls.key'), '-out', f('tls.csr')]);
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run(['x509', '-req', '-in', f('tls.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', f('ext.cnf'), '-out', f('tls.pem')]);
  return { ca: readFileSync(f('ca.pem')), cert: readFileSync(f('tls.pem')), key: readFileSync(f('tls.key')) };
}

/** A webhook that allows every request it is sent; counts them. */
async function noopWebhook(certs) {
  let calls = 0;
  const server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, calls: () => calls, close: () => (server.closeAllConnections(), server.close()) };
}

/** Creates `CREATES` ConfigMaps at `CONCURRENCY`; latency of each create. */
async function creates(origin, prefix) {
  const hist = new Histogram();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < CREATES) {
      const n = next++;
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${n}` }, data: { n: String(n) } });
      const started = performance.now();
      const res = await fetch(`${origin}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`create: ${res.status}`);
      hist.record(performance.now() - started);
    }
  }));
  return { seconds: (performance.now() - t0) / 1000, ...hist.summary() };
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
process.on('SIGINT', () => { killAll(); process.exit(130); });

const certs = pki();
const webhook = await noopWebhook(certs);
const srv = await startKapi({ backend: 'memory', dataDir: tempDir('kapi-bench-admission-') });
try {
  const rows = [];
  const phase = async (name, prefix) => {
    await creates(srv.origin, `${prefix}-warm`); // warm-up, not reported
    const cpu0 = cpuSeconds(srv.pid);
    const r = await creates(srv.origin, prefix);
    rows.push({ name, ...r, cpu: cpuSeconds(srv.pid) - cpu0 });
  };
  await phase('no webhook', 'a');
  const config = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'noop' },
    webhooks: [{
      name: 'noop.bench.example.com',
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      clientConfig: { url: `https://127.0.0.1:${webhook.port}/validate`, caBundle: certs.ca.toString('base64') },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'] }],
    }],
  };
  const res = await fetch(`${srv.origin}${VWC}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(config) });
  if (res.status !== 201) throw new Error(`webhook configuration: ${res.status} ${await res.text()}`);
  while (webhook.calls() === 0) {
    await fetch(`${srv.origin}/api/v1/namespaces/default/configmaps?dryRun=All`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'probe' } }) });
  }
  const before = webhook.calls();
  await phase('one no-op validating webhook', 'b');
  const called = webhook.calls() - before;
  await fetch(`${srv.origin}${VWC}/noop`, { method: 'DELETE' });
  await new Promise((r) => setTimeout(r, 1000));
  const after = webhook.calls();
  await phase('no webhook (again)', 'c');
  if (webhook.calls() !== after) throw new Error('the webhook was still called after its configuration was deleted');

  console.log(`${fmt(CREATES)} ConfigMap creates at concurrency ${CONCURRENCY}, memory backend, plain HTTP; the webhook answered ${fmt(called)} reviews (warm-up included)`);
  console.log('');
  console.log('| admission | creates/s | p50 ms | p90 ms | p99 ms | server CPU ms per create |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.name} | ${fmt(r.count / r.seconds)} | ${fmt(r.p50, 2)} | ${fmt(r.p90, 2)} | ${fmt(r.p99, 2)} | ${fmt((r.cpu * 1000) / r.count, 3)} |`);
} finally {
  webhook.close();
  await stop(srv.child);
  killAll();
}
