// /healthz, /livez and /readyz tell the truth about the storage backend and the watch cache, as kube's do.
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/** A memory backend whose reads can be made to fail or to hang. */
function flakyBackend() {
  const memory = createMemoryBackend();
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang' };
  const backend: StorageBackend = {
    ...memory,
    get: (key, options) => {
      if (state.mode === 'fail') return Promise.reject(new Error('connection refused'));
      if (state.mode === 'hang') return new Promise(() => {});
      return memory.get(key, options);
    },
  };
  return { backend, state };
}

/** Lets the watch cache's fill run: it is queued behind I/O, and a loaded machine can need more than one turn. */
async function settle(h: Harness) {
  while ((await h.req('GET', '/readyz/watch-cache')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('health checks', () => {
  it('report a storage backend that fails: readyz and healthz 500 naming it, livez still 200', async () => {
    const { backend, state } = flakyBackend();
    const h = await startHarness({}, { storage: backend });
    await settle(h);
    expect((await h.req('GET', '/readyz')).body).toBe('ok');
    expect((await h.req('GET', '/readyz?verbose')).body).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]watch-cache ok\n[+]poststarthook/start-kapi-controllers ok\n[+]shutdown ok\nreadyz check passed\n',
    );
    state.mode = 'fail';
    const readyz = await h.req('GET', '/readyz');
    expect(readyz.status).toBe(500);
    expect(readyz.body).toContain('[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n');
    expect(readyz.body).toMatch(/readyz check failed\n$/);
    expect((await h.req('GET', '/healthz')).status).toBe(500);
    expect((await h.req('GET', '/livez')).status).toBe(200);
    expect(await h.req('GET', '/readyz/etcd')).toMatchObject({ status: 500, body: 'internal server error: connection refused\n' });
    expect((await h.req('GET', '/readyz/ping')).body).toBe('ok');
    // kube's ?exclude= leaves a check out.
    const excluded = await h.req('GET', '/readyz?exclude=etcd&exclude=etcd-readiness&verbose');
    expect(excluded.status).toBe(200);
    expect(excluded.body).toContain('[+]etcd excluded: ok\n');
    state.mode = 'ok';
    expect((await h.req('GET', '/readyz')).status).toBe(200);
  });

  it('count a backend that does not answer as failed, after the check deadline (2 s)', async () => {
    const { backend, state } = flakyBackend();
    const h = await startHarness({}, { storage: backend });
    await settle(h);
    state.mode = 'hang';
    const res = await h.req('GET', '/readyz/etcd');
    expect(res).toMatchObject({ status: 500, body: 'internal server error: timed out after 2000ms\n' });
  });

  it('say not ready while the watch cache fills and while the server shuts down', async () => {
    const h = await startHarness();
    // In process, nothing has let the fill (queued behind I/O) run yet.
    expect((await h.req('GET', '/readyz/watch-cache')).status).toBe(500);
    await settle(h);
    expect((await h.req('GET', '/readyz/watch-cache')).body).toBe('ok');
    await h.server.stop();
    const readyz = await h.req('GET', '/readyz?verbose');
    expect(readyz.status).toBe(500);
    expect(readyz.body).toContain('[-]shutdown failed: reason withheld');
    expect((await h.req('GET', '/livez')).status).toBe(200);
  });
});

describe('graceful shutdown hooks', () => {
  it('beginShutdown makes readyz fail while requests are served; endWatches ends open watch streams cleanly', async () => {
    const h = await startHarness();
    await settle(h);
    const watch = await h.server.fetch(new Request('http://kapi.test/api/v1/namespaces/default/configmaps?watch=true'));
    expect(watch.status).toBe(200);
    const reader = watch.body!.getReader();
    h.server.beginShutdown();
    const readyz = await h.req('GET', '/readyz?verbose');
    expect(readyz.status).toBe(500);
    expect(readyz.body).toContain('[-]shutdown failed: reason withheld');
    expect((await h.req('GET', '/livez')).status).toBe(200);
    expect((await h.req('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
    h.server.endWatches();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});
