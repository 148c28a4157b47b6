// Graceful termination of the real server (SIGTERM), as kube-apiserver does it: /readyz fails at once while
// requests are still served for --shutdown-delay-duration, then watches end cleanly (clients re-watch), writes in
// flight finish, nothing acknowledged is lost, and the process exits 0.
import { describe, expect, it } from 'vitest';
import { configMap, request, startHttpServer } from './storage-helpers.js';

describe('SIGTERM', () => {
  it('fails readiness, keeps serving for the delay, ends watches cleanly, keeps every acknowledged write, exits 0', async () => {
    const server = await startHttpServer(['--shutdown-delay-duration=1s']);
    const base = `${server.url}/api/v1/namespaces/default/configmaps`;
    const watch = await fetch(`${base}?watch=true`);
    expect(watch.status).toBe(200);
    const streamEnd = (async () => {
      const reader = watch.body!.getReader();
      for (;;) if ((await reader.read()).done) return 'ended';
    })().catch((error: Error) => `failed: ${error.message}`);

    // A burst of writes, with SIGTERM in the middle of it.
    const acknowledged: string[] = [];
    let stopWriting = false;
    const writer = async (w: number) => {
      for (let i = 0; !stopWriting; i++) {
        const res = await request('POST', base, configMap(`w${w}-${i}`)).catch(() => undefined);
        if (!res) return; // the server stopped accepting
        if (res.status === 201) acknowledged.push(`w${w}-${i}`);
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    await new Promise((r) => setTimeout(r, 300));
    const exited = server.stop(); // SIGTERM, resolves once the process exited

    // During the delay: not ready, still serving reads and writes.
    await new Promise((r) => setTimeout(r, 100));
    const readyz = await fetch(`${server.url}/readyz?verbose`);
    expect(readyz.status).toBe(500);
    expect(await readyz.text()).toContain('[-]shutdown failed: reason withheld');
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    expect((await request('POST', base, configMap('during-delay'))).status).toBe(201);
    acknowledged.push('during-delay');

    expect(await exited).toBe(0);
    stopWriting = true;
    await writers;
    expect(await streamEnd).toBe('ended');
    expect(server.output()).toContain('received SIGTERM, shutting down');

    // Every acknowledged write is there after a restart on the same data.
    const restarted = await startHttpServer([], { dataDir: server.dataDir });
    try {
      const list = await request('GET', base.replace(server.url, restarted.url));
      const names = new Set((list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name));
      expect(acknowledged.filter((n) => !names.has(n))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(10);
    } finally {
      await restarted.stop();
    }
  }, 60_000);
});
