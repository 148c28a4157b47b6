import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, signalAndWait, waitForReady } from './process.js';

export * from './process.js';

/**
 * Test helpers that run a real etcd: a single-member cluster on free loopback ports with a temporary data
 * directory, started per test file (or per test). The binary is `$ETCD_BIN` or `etcd` on PATH (Debian's
 * `etcd-server` package).
 */

/** The etcd binary to run, or undefined when there is none. */
export function etcdBinary(): string | undefined {
  const bin = process.env.ETCD_BIN || 'etcd';
  const probe = spawnSync(bin, ['--version'], { stdio: 'ignore' });
  return probe.status === 0 ? bin : undefined;
}

/**
 * Whether etcd tests should be skipped: only when etcd is missing outside CI. In CI (`CI` set) they always run,
 * so a missing etcd fails them instead of hiding them.
 */
export function skipWithoutEtcd(): boolean {
  return !process.env.CI && etcdBinary() === undefined;
}

export interface EtcdProcess {
  /** The client URL, for `--etcd-servers`. */
  readonly endpoint: string;
  readonly dataDir: string;
  /** The running etcd's process id; undefined while it is stopped. */
  readonly pid: number | undefined;
  /** Everything etcd printed. */
  output(): string;
  /** Stops etcd (SIGTERM, or SIGKILL with `kill`), keeping its data dir and ports for `start()`. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts etcd again on the same data dir and ports; resolves once it is healthy. */
  start(): Promise<void>;
  /** Stops etcd and removes its data dir. */
  destroy(): Promise<void>;
}

export interface StartEtcdOptions {
  /** etcd's `--experimental-watch-progress-notify-interval` (e.g. '1s'); etcd's default is 10 minutes. */
  progressNotifyInterval?: string;
  /** How long to wait for etcd to become healthy, ms. Default 30 s. */
  readyTimeoutMs?: number;
  /** Serve clients over TLS with this certificate and key (PEM files): the endpoint is then `https://`. */
  tls?: { certFile: string; keyFile: string };
  /** More etcd flags (e.g. `--quota-backend-bytes`). */
  extraArgs?: string[];
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts a fresh single-member etcd on loopback; resolves once it answers its health check. */
export async function startEtcd(options: StartEtcdOptions = {}): Promise<EtcdProcess> {
  const bin = etcdBinary();
  if (!bin) throw new Error('etcd is not installed: install the Debian package etcd-server, or set ETCD_BIN');
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const child of running) child.kill('SIGKILL');
    });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-etcd-'));
  // Ports are picked free, then bound by etcd a moment later: another process may take one in between (test
  // files run in parallel), so a start that finds its port taken picks new ones.
  let endpoint = '';
  let metrics = '';
  let args: string[] = [];
  const choosePorts = async () => {
    const clientPort = await freePort();
    const peerPort = await freePort();
    const metricsPort = await freePort();
    endpoint = `${options.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
    // /health is also served here, over plain HTTP whatever the client URLs use.
    metrics = `http://127.0.0.1:${metricsPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    args = [
      '--name', 'kapi-test',
      '--data-dir', dataDir,
      '--listen-client-urls', endpoint,
      '--advertise-client-urls', endpoint,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `kapi-test=${peer}`,
      '--listen-metrics-urls', metrics,
      '--log-level', 'warn',
      ...(options.tls ? ['--cert-file', options.tls.certFile, '--key-file', options.tls.keyFile] : []),
      ...(options.progressNotifyInterval ? ['--experimental-watch-progress-notify-interval', options.progressNotifyInterval] : []),
      ...(options.extraArgs ?? []),
    ];
  };
  let output = '';
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child) throw new Error('etcd is already running');
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    running.add(proc);
    proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.once('exit', () => {
      running.delete(proc);
      if (child === proc) child = undefined;
    });
    await waitForReady(proc, () => isHealthy(metrics), {
      what: 'etcd',
      timeoutMs: options.readyTimeoutMs ?? 30_000,
      output: () => output,
      intervalMs: 50,
    });
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child) await signalAndWait(child, signal);
  };

  for (let attempt = 1; ; attempt++) {
    await choosePorts();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 3 || !output.includes('address already in use')) throw error;
      output = '';
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir);
    }
  }
  return {
    endpoint,
    dataDir,
    get pid() {
      return child?.pid;
    },
    output: () => output,
    stop,
    start,
    async destroy() {
      await stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether etcd at `metricsUrl` answers its health check (served there over plain HTTP, whatever the client URLs use). */
async function isHealthy(metricsUrl: string): Promise<boolean> {
  const res = await fetch(`${metricsUrl}/health`, { signal: AbortSignal.timeout(1000) });
  return ((await res.json()) as { health?: string }).health === 'true';
}
