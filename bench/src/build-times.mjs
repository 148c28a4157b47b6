// How long the generator, the build and the server's cold start take, for comparing checkouts (before and after
// adding kinds, say):
//
//   node bench/src/build-times.mjs [checkout ...] [--runs=5] [--no-build]
//
// Each checkout (default: this one) must be installed and built. Per checkout: `codegen generate` (the generator
// over every schema, writing nothing that is current) and `turbo run build --force` once (every package, no cache;
// skipped with --no-build). Then the cold start of kapi-server, spawn to /readyz 200, `runs` times, the checkouts
// taking turns within each run so that they share the machine's moods:
// - "bare": plain HTTP, AlwaysAllow, no kubeconfig written (the figures recorded since the first measurement);
// - "defaults": the README's start, the flags' defaults (the secure port with its generated certificates, RBAC, the
//   admin kubeconfig), on a free port; readiness is asked over HTTPS as any client may;
// each on a fresh SQLite data dir (the first start makes keys, certificates and the bootstrap objects) and again on
// that data dir (a restart). Prints the medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const flags = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')));
const checkouts = process.argv.slice(2).filter((a) => !a.startsWith('--')).map((c) => resolve(c));
if (!checkouts.length) checkouts.push(resolve(import.meta.dirname, '../..'));
const runs = Number(flags.runs ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(command, args, cwd) {
  const t0 = performance.now();
  const res = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} failed: ${res.stderr}`);
  return performance.now() - t0;
}

const freePort = () =>
  new Promise((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => done(port));
    });
  });

/** The status of GET /readyz over HTTPS, trusting any certificate (the server's CA is made during the start). */
const httpsStatus = (port) =>
  new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false }, (res) => {
      res.resume();
      done(res.statusCode);
    });
    req.on('error', fail);
    req.end();
  });

const MODES = {
  bare: (port) => ({
    args: ['--secure-port=0', `--insecure-port=${port}`, '--authorization-mode=AlwaysAllow', '--write-kubeconfig='],
    ready: async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status,
  }),
  defaults: (port) => ({ args: [`--secure-port=${port}`], ready: () => httpsStatus(port) }),
};

async function coldStart(checkout, dataDir, mode) {
  const { args, ready } = MODES[mode](await freePort());
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(checkout, 'apps/server/dist/main.js'), `--data-dir=${dataDir}`, ...args], { stdio: 'ignore' });
  try {
    for (;;) {
      try {
        if ((await ready()) === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      if (performance.now() - t0 > 30_000) throw new Error(`${checkout}: not ready after 30 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
}

const results = new Map(checkouts.map((c) => [c, { first: { bare: [], defaults: [] }, restart: { bare: [], defaults: [] } }]));
for (const checkout of checkouts) {
  const r = results.get(checkout);
  r.generate = median(Array.from({ length: runs }, () => timed(process.execPath, ['codegen/dist/cli.js', 'generate'], checkout)));
  r.build = !('no-build' in flags) ? timed('npx', ['turbo', 'run', 'build', '--force', '--output-logs=none'], checkout) : undefined;
}
for (let i = 0; i < runs; i++) {
  for (const mode of Object.keys(MODES)) {
    for (const checkout of checkouts) {
      const r = results.get(checkout);
      const dataDir = mkdtempSync(join(tmpdir(), 'kapi-cold-'));
      r.first[mode].push(await coldStart(checkout, dataDir, mode));
      r.restart[mode].push(await coldStart(checkout, dataDir, mode));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log('| checkout | `codegen generate` | `turbo run build --force` | first start, bare | restart, bare | first start, defaults | restart, defaults |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [checkout, r] of results) {
  const starts = ['bare', 'defaults'].map((m) => `${s(median(r.first[m]))} | ${s(median(r.restart[m]))}`).join(' | ');
  console.log(`| ${checkout} | ${s(r.generate)} | ${r.build === undefined ? '—' : s(r.build)} | ${starts} |`);
}
