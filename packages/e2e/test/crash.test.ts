import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configMap, request, startHttpServer, watch } from './storage-helpers.js';

// The default storage (SQLite in --data-dir) against a crash: every write the server acknowledged survives a
// SIGKILL in the middle of a stream of writes, with its resourceVersion, and resource versions continue upward.
describe('kapi-server killed with SIGKILL while writing (sqlite, the default storage)', () => {
  it('keeps every acknowledged create with its resourceVersion after a restart on the same data dir', async () => {
    const server = await startHttpServer();
    const dataDir = server.dataDir;
    const base = `${server.url}/api/v1/namespaces/default/configmaps`;
    const acknowledged = new Map<string, string>();
    let next = 0;
    let killing: Promise<void> | undefined;
    let inFlight = 0;
    let inFlightAtKill = 0;

    // Eight writers create ConfigMaps back to back; once 400 creates were acknowledged, the server is killed
    // while the others are in flight. A create the server answered 201 is acknowledged; any other is not.
    const writer = async () => {
      while (!killing) {
        const name = `crash-${String(next++).padStart(5, '0')}`;
        inFlight += 1;
        try {
          const res = await request('POST', `${base}`, configMap(name, { n: name }));
          if (res.status === 201) acknowledged.set(name, res.body.metadata.resourceVersion as string);
          else throw new Error(`create ${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
        } catch (err) {
          if (killing) return;
          throw err;
        } finally {
          inFlight -= 1;
        }
        if (acknowledged.size >= 400 && !killing) {
          inFlightAtKill = inFlight;
          killing = server.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    await killing;
    expect(acknowledged.size).toBeGreaterThanOrEqual(400);
    expect(inFlightAtKill).toBeGreaterThan(0); // killed mid-stream, with creates unanswered

    const restarted = await startHttpServer([], { dataDir });
    try {
      const list = await request('GET', `${restarted.url}/api/v1/namespaces/default/configmaps`);
      expect(list.status).toBe(200);
      const stored = new Map<string, string>(
        (list.body.items as { metadata: { name: string; resourceVersion: string } }[]).map((i) => [i.metadata.name, i.metadata.resourceVersion]),
      );
      const missing = [...acknowledged].filter(([name, rv]) => stored.get(name) !== rv);
      expect(missing).toEqual([]);

      const newest = Math.max(...[...acknowledged.values()].map(Number));
      expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(newest);
      const after = await request('POST', `${restarted.url}/api/v1/namespaces/default/configmaps`, configMap('after-restart'));
      expect(after.status).toBe(201);
      expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Number(list.body.metadata.resourceVersion));

      // A version seen before the crash still means what it meant: a list at it shows the state then.
      const oldest = [...acknowledged].sort((a, b) => Number(a[1]) - Number(b[1]))[0];
      const exact = await request('GET', `${restarted.url}/api/v1/namespaces/default/configmaps?resourceVersion=${oldest[1]}&resourceVersionMatch=Exact`);
      expect(exact.status).toBe(200);
      expect((exact.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toContain(oldest[0]);

      // A client that watched the server before the crash resumes from the last version it saw: the restarted
      // server's watch cache reaches back as far as storage's history, so nothing written since is missed.
      const w = await watch(`${restarted.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${newest}`);
      try {
        // Creates that were in flight at the kill may have been stored without an answer: they come first.
        const seen: string[] = [];
        while (!seen.includes('after-restart')) {
          // next(n) answers the first n events: the newest is the n-th (asking for 1 again would return the first
          // event forever, spinning without ever yielding to the test's timeout).
          const event = (await w.next(seen.length + 1))[seen.length];
          expect(event.type).toBe('ADDED');
          expect(acknowledged.has(event.object.metadata.name)).toBe(false);
          seen.push(event.object.metadata.name);
        }
        expect(seen.length).toBeLessThanOrEqual(1 + inFlightAtKill);
      } finally {
        w.close();
      }
    } finally {
      await restarted.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
