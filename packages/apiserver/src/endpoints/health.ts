import { Hono } from 'hono';

/** One health check (kube's healthz.HealthChecker): resolves when healthy, throws (or rejects) with why not. */
export interface HealthCheck {
  name: string;
  check(): void | Promise<void>;
}

/** The checks of each endpoint, as kube-apiserver groups them. */
export interface HealthChecks {
  /** Liveness: is the process worth keeping? Not the storage backend's reachability (a restart would not help). */
  livez: HealthCheck[];
  /** Readiness: can it serve requests now? The storage backend, the watch cache, the start-up hooks. */
  readyz: HealthCheck[];
  /** The deprecated all-in-one endpoint. */
  healthz: HealthCheck[];
}

/** What the server's checks look at. */
export interface HealthState {
  /** One read of the storage backend (rejects when it fails). */
  probeStorage(): Promise<unknown>;
  /** Start-up finished (namespaces, hooks, controllers). */
  started(): boolean;
  /** The watch cache holds the state. */
  cacheReady(): boolean;
  /** Shutdown has begun. */
  stopping(): boolean;
}

/**
 * kube-apiserver's checks per endpoint. `etcd` and `etcd-readiness` read the storage backend itself, sharing one
 * read when they run together; liveness does not depend on storage, as restarting would not bring it back.
 */
export function serverHealthChecks(state: HealthState): HealthChecks {
  let probing: Promise<unknown> | undefined;
  const probe = () => (probing ??= state.probeStorage().finally(() => (probing = undefined)));
  const check = (name: string, run: () => void | Promise<unknown>): HealthCheck => ({ name, check: async () => void (await run()) });
  const basics = [check('ping', () => {}), check('log', () => {})];
  const started = check('poststarthook/start-kapi-controllers', () => {
    if (!state.started() && !state.stopping()) throw new Error('not finished');
  });
  return {
    livez: [...basics, started],
    readyz: [
      ...basics,
      check('etcd', probe),
      check('etcd-readiness', probe),
      check('watch-cache', () => {
        if (!state.cacheReady()) throw new Error('the watch cache is filling');
      }),
      started,
      check('shutdown', () => {
        if (state.stopping()) throw new Error('the server is shutting down');
      }),
    ],
    healthz: [...basics, check('etcd', probe), started],
  };
}

/** How long a check may take before it counts as failed (kube's `--etcd-healthcheck-timeout` is 2 s). */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

async function run(check: HealthCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(() => check.check()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs}ms`)), timeoutMs);
      }),
    ]);
    return undefined;
  } catch (err) {
    return (err as Error)?.message || String(err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz, /livez and /readyz as kube-apiserver serves them, each running its checks on every request. All pass:
 * 200 `ok`, or with `?verbose` one `[+]<check> ok` line per check and `<endpoint> check passed`. One fails: 500
 * with every line (`[-]<check> failed: reason withheld`) and `<endpoint> check failed`, as kube answers.
 * `?exclude=<check>` (repeatable) leaves checks out. Each check alone is at `/<endpoint>/<check>`: `ok`, or 500
 * `internal server error: <why>`.
 */
export function createHealthRoutes(
  checks: HealthChecks,
  timeoutMs = HEALTH_CHECK_TIMEOUT_MS,
  /** Told each check's outcome (kube's health check SLIs, /metrics/slis). */
  observe?: (endpoint: keyof HealthChecks, check: string, healthy: boolean) => void,
): Hono {
  const app = new Hono();
  for (const endpoint of ['healthz', 'livez', 'readyz'] as const) {
    const runObserved = async (check: HealthCheck) => {
      const failure = await run(check, timeoutMs);
      observe?.(endpoint, check.name, failure === undefined);
      return failure;
    };
    app.get(`/${endpoint}`, async (c) => {
      const excluded = new Set(c.req.queries('exclude') ?? []);
      const selected = checks[endpoint].filter((h) => !excluded.has(h.name));
      const failures = await Promise.all(selected.map(runObserved));
      const failed = failures.some((f) => f !== undefined);
      const verbose = c.req.query('verbose') !== undefined;
      if (!failed && !verbose) return c.text('ok');
      const lines = selected.map((h, i) => (failures[i] === undefined ? `[+]${h.name} ok` : `[-]${h.name} failed: reason withheld`));
      for (const name of excluded) if (checks[endpoint].some((h) => h.name === name)) lines.push(`[+]${name} excluded: ok`);
      return c.text(`${lines.join('\n')}\n${endpoint} check ${failed ? 'failed' : 'passed'}\n`, failed ? 500 : 200);
    });
    app.get(`/${endpoint}/:check{.+}`, async (c) => {
      const check = checks[endpoint].find((h) => h.name === c.req.param('check'));
      if (!check) return c.notFound();
      const failure = await runObserved(check);
      return failure === undefined ? c.text('ok') : c.text(`internal server error: ${failure}\n`, 500);
    });
  }
  return app;
}
