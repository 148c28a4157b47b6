import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/index.js';

describe('kapi-server health endpoints over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ bindAddress: '127.0.0.1', port: 0 });
  });
  afterAll(async () => server.close());

  for (const path of ['/readyz', '/livez', '/healthz']) {
    it(`GET ${path} answers ok`, async () => {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('ok');
    });
  }

  it('GET /version answers a kube version.Info', async () => {
    const res = await fetch(server.url + '/version');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body.major).toBe('1');
    expect(body.gitVersion).toMatch(/^v1\.\d+\.\d+/);
  });
});
