// Every process the benchmark starts: the Kapi server, the baseline server, etcd and the load drivers. All of
// them are stopped on the way out, also on errors, signals and the run's deadline: tracked here, except etcd,
// which @kapi/storage-etcd's test helpers start and kill when the process exits (every way out exits).
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput, etcdBinary, freePort, startEtcd as startTestEtcd, waitForReady } from '@kapi/storage-etcd/testing';

export { etcdBinary };

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, '..', '..');
/**
 * The checkout whose built server is measured: this one, or the one KAPI_BENCH_CHECKOUT names (another worktree,
 * built), so that two commits are measured by the same benchmark code.
 */
export const serverCheckout = process.env.KAPI_BENCH_CHECKOUT ? resolve(process.env.KAPI_BENCH_CHECKOUT) : repoRoot;
export const serverMain = join(serverCheckout, 'apps', 'server', 'dist', 'main.js');

const children = new Set();
const tempDirs = new Set();

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills every process still running (SIGKILL) and removes temporary directories. Synchronous: safe in 'exit'. */
export function killAll() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`. */
export function stop(child, graceMs = 5000) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a child printed: the last 32,000 characters or so, enough to tell why it failed. */
const capture = (child) => captureOutput(child, 32_000);

/**
 * Starts the built kapi-server on plain HTTP (loopback only, TLS off) and resolves once /readyz answers 200.
 * `readyMs` is the time from spawn to ready: the cold start. With `secure`, it also serves HTTPS on another
 * loopback port and writes its admin kubeconfig (client certificate) to `kubeconfig`, for Kubernetes clients.
 */
export async function startKapi({ backend, dataDir, etcdEndpoint, etcdPrefix, secure = false }) {
  const port = await freePort();
  const kubeconfig = secure ? join(dataDir, 'admin.kubeconfig') : undefined;
  const args = [
    // The inspector stays off; collectGarbage() turns it on (SIGUSR1) only to measure memory at rest.
    '--inspect-port=127.0.0.1:0',
    serverMain,
    '--bind-address=127.0.0.1',
    `--secure-port=${secure ? await freePort() : 0}`,
    `--insecure-port=${port}`,
    `--storage-backend=${backend}`,
    `--data-dir=${dataDir}`,
    `--write-kubeconfig=${kubeconfig ?? ''}`,
    '--feature-gates=CBORServingAndStorage=true',
    // The load comes over plain HTTP without credentials; RBAC (the default) would refuse it.
    '--authorization-mode=AlwaysAllow',
    ...(backend === 'etcd3' ? [`--etcd-servers=${etcdEndpoint}`, `--etcd-prefix=${etcdPrefix}`] : []),
  ];
  const t0 = performance.now();
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: repoRoot }));
  const output = capture(child);
  const origin = `http://127.0.0.1:${port}`;
  const ready = async () => (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(1000) })).status === 200;
  await waitForReady(child, ready, { what: 'kapi-server', timeoutMs: 120_000, output, intervalMs: 10 });
  const readyMs = performance.now() - t0;
  // The kubeconfig is written once the secure port listens, perhaps just after /readyz first answered.
  if (kubeconfig) await waitForReady(child, () => existsSync(kubeconfig), { what: 'the admin kubeconfig', timeoutMs: 10_000, output, intervalMs: 10 });
  return { child, pid: child.pid, origin, readyMs, output, kubeconfig };
}

/**
 * Runs a full garbage collection in a running kapi-server through the inspector protocol (activated by
 * SIGUSR1 on the loopback port chosen at start), so RSS at rest is measured without the garbage load left.
 */
export async function collectGarbage(srv) {
  if (!srv.inspector) {
    process.kill(srv.pid, 'SIGUSR1');
    const deadline = Date.now() + 10_000;
    while (!(srv.inspector = /Debugger listening on (ws:\/\/\S+)/.exec(srv.output())?.[1]) && Date.now() < deadline) await sleep(20);
    if (!srv.inspector) throw new Error('the inspector of kapi-server did not start');
  }
  const { WebSocket } = await import('undici');
  const ws = new WebSocket(srv.inspector);
  try {
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = (e) => reject(new Error(`inspector: ${e.message ?? 'connection failed'}`));
    });
    for (const id of [1, 2]) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('inspector: no answer to collectGarbage')), 30_000);
        ws.onmessage = (m) => {
          if (JSON.parse(m.data).id === id) {
            clearTimeout(timer);
            resolve();
          }
        };
        ws.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
      });
    }
  } finally {
    ws.close();
  }
  await sleep(200);
}

/** Starts the B1/B2 node:http server. */
export async function startBaselineServer() {
  const port = await freePort();
  const child = track(spawn(process.execPath, [join(here, 'baseline-server.mjs'), String(port)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const output = capture(child);
  await waitForReady(child, () => output().includes('listening'), { what: 'baseline server', timeoutMs: 10_000, output, intervalMs: 10 });
  return { child, pid: child.pid, origin: `http://127.0.0.1:${port}` };
}

/**
 * A single-member etcd on loopback ports with a temporary data dir, as @kapi/storage-etcd's tests run it (the
 * binary is $ETCD_BIN or etcd on PATH), with room for the full run.
 */
export async function startEtcd() {
  // Room for 100,000 objects and their history in the full run.
  const etcd = await startTestEtcd({ extraArgs: ['--quota-backend-bytes', String(8 * 1024 ** 3)] });
  tempDirs.add(etcd.dataDir);
  const version = spawnSync(etcdBinary(), ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  return { pid: etcd.pid, endpoint: etcd.endpoint, version, stop: () => etcd.stop() };
}

/**
 * Runs one driver task in a fresh child process. `onStart` is called when the driver begins measuring, and
 * the result is returned when it reports; the driver is killed after `timeoutMs`.
 */
export function runDriver(task, { onStart, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = track(fork(join(here, 'driver.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(reject, new Error(`driver task ${task.kind} did not finish within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on('message', (msg) => {
      if (msg.type === 'start') onStart?.();
      else if (msg.type === 'result') finish(resolve, msg.result);
      else if (msg.type === 'error') finish(reject, new Error(`driver task ${task.kind} failed: ${msg.message}`));
    });
    child.once('exit', (code, signal) => finish(reject, new Error(`driver exited (${code ?? signal}) before reporting`)));
    child.send(task);
  });
}
