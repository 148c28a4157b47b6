import { Hono } from 'hono';

const CHECKS = ['ping', 'log', 'etcd', 'poststarthook/start-kapi-controllers'];

/**
 * /healthz, /livez and /readyz as kube-apiserver serves them: `ok`, or with `?verbose` one `[+]<check> ok` line
 * per check and `<endpoint> check passed`; each check also at `/<endpoint>/<check>`.
 */
export function createHealthRoutes(isReady: () => boolean): Hono {
  const app = new Hono();
  for (const endpoint of ['healthz', 'livez', 'readyz']) {
    app.get(`/${endpoint}`, (c) => {
      const ready = endpoint !== 'readyz' || isReady();
      const verbose = c.req.query('verbose') !== undefined;
      if (!verbose) return ready ? c.text('ok') : c.text(`[-]poststarthook/start-kapi-controllers failed: not finished\n${endpoint} check failed`, 500);
      const lines = CHECKS.map((check) => (check.startsWith('poststarthook') && !ready ? `[-]${check} failed: reason withheld` : `[+]${check} ok`));
      return c.text(`${lines.join('\n')}\n${endpoint} check ${ready ? 'passed' : 'failed'}\n`, ready ? 200 : 500);
    });
    app.get(`/${endpoint}/:check{.+}`, (c) => (CHECKS.includes(c.req.param('check')) ? c.text('ok') : c.notFound()));
  }
  return app;
}
