import { Hono } from 'hono';

/** Build information served at /version, shaped like kube-apiserver's version.Info. */
export const versionInfo = {
  major: '1',
  minor: '33',
  gitVersion: 'v1.33.0-kapi.0.1.0',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch}`,
};

/**
 * The sample server's HTTP app. Until the API server core lands this only answers the health and version
 * endpoints that kube-apiserver serves, with kube's plain-text health bodies.
 */
export function createApp(): Hono {
  const app = new Hono();
  for (const path of ['/healthz', '/livez', '/readyz']) {
    app.get(path, (c) => c.text('ok'));
  }
  app.get('/version', (c) => c.json(versionInfo));
  return app;
}
