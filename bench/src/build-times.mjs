// How long the generator, the build and the server's cold start take, for comparing checkouts (before and after
// adding kinds, say):
//
//   node bench/src/build-times.mjs [checkout ...] [--runs=5] [--no-build]
//
// Each checkout (default: this one) must be installed and built. Per checkout: `codegen generate` (the generator
// over every schema, writing nothing that is current), `turbo run build --force` once (every package, no cache;
// skipped with --no-build), and the cold start of kapi-server (spawn to /readyz 200) on a fresh SQLite data dir
// (its first start creates the bootstrap objects) and again on that data dir (a restart), `runs` times each. Prints
// the medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

async function coldStart(checkout, dataDir) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [
    join(checkout, 'apps/server/dist/main.js'), `--data-dir=${dataDir}`, '--secure-port=0', `--insecure-port=${port}`,
    '--authorization-mode=AlwaysAllow', '--write-kubeconfig=',
  ], { stdio: 'ignore' });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return performance.now() - t0;
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

console.log('| checkout | `codegen generate` | `turbo run build --force` | first start (spawn to /readyz 200) | restart |');
console.log('| --- | --- | --- | --- | --- |');
for (const checkout of checkouts) {
  const generate = median(Array.from({ length: runs }, () => timed(process.execPath, ['codegen/dist/cli.js', 'generate'], checkout)));
  const build = !('no-build' in flags) ? timed('npx', ['turbo', 'run', 'build', '--force', '--output-logs=none'], checkout) : undefined;
  const [first, restart] = [[], []];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-cold-'));
    first.push(await coldStart(checkout, dataDir));
    restart.push(await coldStart(checkout, dataDir));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`| ${checkout} | ${s(generate)} | ${build === undefined ? '—' : s(build)} | ${s(median(first))} | ${s(median(restart))} |`);
}
