// kube's watch table (docs/lists-and-watches.md), list-then-watch, resuming, bookmarks, streaming lists, selectors, slow watchers and
// deletecollection, observed as a client sees them: events on a JSON watch stream.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configMap, eventNames, openWatch, settled, startHarness, type Harness, type OpenWatch } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const rvOf = (obj: any) => Number(obj.metadata.resourceVersion);

describe('watch', () => {
  let h: Harness;
  const open: OpenWatch[] = [];
  const watch = async (query: string, path = CM) => {
    const w = await openWatch(h, `${path}?watch=1&${query}`);
    open.push(w);
    return w;
  };
  beforeEach(async () => {
    h = await startHarness({ WatchList: true }, { watchCache: { bookmarkIntervalMs: 50, freshnessWaitMs: 200 } });
    // The server's own writes at start (default ServiceAccounts) would move the version the bookmarks report.
    await settled(h);
    await h.req('POST', CM, configMap('a'));
    await h.req('POST', CM, configMap('b'));
  });
  afterEach(async () => {
    for (const w of open.splice(0)) w.close();
    await h.server.stop();
  });

  describe('the watch table', () => {
    for (const [rv, meaning] of [['', 'Get State and Start at Most Recent'], ['0', 'Get State and Start at Any']]) {
      it(`resourceVersion ${rv || 'unset'}: ${meaning} (synthetic ADDED for the state, then changes)`, async () => {
        const w = await watch(rv ? `resourceVersion=${rv}` : '');
        expect(w.status).toBe(200);
        expect(w.headers.get('content-type')).toBe('application/json');
        expect(eventNames(await w.next(2))).toEqual(['ADDED a', 'ADDED b']);
        await h.req('PATCH', `${CM}/a`, { data: { x: '1' } }, MERGE);
        await h.req('DELETE', `${CM}/b`);
        expect(eventNames(await w.next(2))).toEqual(['MODIFIED a', 'DELETED b']);
      });
    }

    it('another value: Start at Exact (no synthetic events; every change after that version)', async () => {
      const at = rvOf((await h.req('GET', CM)).body);
      await h.req('POST', CM, configMap('c'));
      const w = await watch(`resourceVersion=${at}`);
      await h.req('DELETE', `${CM}/a`);
      const events = await w.next(2);
      expect(eventNames(events)).toEqual(['ADDED c', 'DELETED a']);
      expect(rvOf(events[0].object)).toBeGreaterThan(at);
      // The DELETED object is the last state, at the deletion's version.
      expect(rvOf(events[1].object)).toBeGreaterThan(rvOf(events[0].object));
    });

    it('a version the server has not reached: the watch waits for it, then sends what comes after', async () => {
      const now = rvOf((await h.req('GET', CM)).body);
      const w = await watch(`resourceVersion=${now + 2}`);
      for (const name of ['c', 'd', 'e']) await h.req('POST', CM, configMap(name));
      expect(eventNames(await w.next(1))).toEqual(['ADDED e']);
    });

    it('a version older than the history: 200, then an ERROR event with a 410 Expired Status, then the end', async () => {
      const h2 = await startHarness({}, { compactionIntervalMs: 30 });
      const first = await h2.req('POST', CM, configMap('x'));
      let events: any[] = [];
      for (let i = 0; i < 100; i++) {
        await h2.req('PATCH', `${CM}/x`, { data: { i: String(i) } }, MERGE);
        await new Promise((r) => setTimeout(r, 15));
        const w = await openWatch(h2, `${CM}?watch=1&resourceVersion=${first.body.metadata.resourceVersion}&timeoutSeconds=1`);
        expect(w.status).toBe(200);
        events = await w.next(1);
        w.close();
        if (events[0].type === 'ERROR') break;
      }
      expect(events[0].type).toBe('ERROR');
      expect(events[0].object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
      expect(events[0].object.message).toMatch(new RegExp(`^too old resource version: ${first.body.metadata.resourceVersion} \\(\\d+\\)$`));
      await h2.server.stop();
    });
  });

  it('the history is bounded in bytes: big updates push the oldest events out (410 for a watch from them)', async () => {
    const budget = 64 * 1024;
    const h2 = await startHarness({}, { watchCache: { historyBytes: budget } });
    await new Promise((r) => setTimeout(r, 20)); // the cache fills
    const first = await h2.req('POST', CM, configMap('big', { v: '' }));
    const big = 'x'.repeat(8 * 1024);
    let last: any;
    for (let i = 0; i < 40; i++) last = await h2.req('PATCH', `${CM}/big`, { data: { v: `${i}${big}` } }, MERGE);
    await new Promise((r) => setTimeout(r, 20)); // the cache sees the last events
    const old = await openWatch(h2, `${CM}?watch=1&resourceVersion=${first.body.metadata.resourceVersion}&timeoutSeconds=1`);
    const [expired] = await old.next(1);
    old.close();
    expect(expired).toMatchObject({ type: 'ERROR', object: { reason: 'Expired', code: 410 } });
    // A watch from a recent version is served from what the window kept.
    const recentRv = Number(last.body.metadata.resourceVersion) - 2;
    const recent = await openWatch(h2, `${CM}?watch=1&resourceVersion=${recentRv}&timeoutSeconds=1`);
    const events = await recent.next(2);
    recent.close();
    expect(events.map((e: any) => e.type)).toEqual(['MODIFIED', 'MODIFIED']);
    // An exact list at the old version is still answered, from storage.
    const exact = await h2.req('GET', `${CM}?resourceVersion=${first.body.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    await h2.server.stop();
  });

  it('storage history is bounded in bytes too: a flood of big updates compacts it early (410 for what it dropped)', async () => {
    const h2 = await startHarness({}, { storageHistoryBytes: 64 * 1024 });
    await new Promise((r) => setTimeout(r, 20)); // the cache fills
    const first = await h2.req('POST', CM, configMap('flood', { v: '' }));
    const big = 'y'.repeat(8 * 1024);
    for (let i = 0; i < 40; i++) await h2.req('PATCH', `${CM}/flood`, { data: { v: `${i}${big}` } }, MERGE);
    await new Promise((r) => setTimeout(r, 20)); // the cache sees the writes, the compaction runs
    const compacted = await h2.storage.compactedRevision();
    expect(compacted).toBeGreaterThan(Number(first.body.metadata.resourceVersion));
    const old = await h2.req('GET', `${CM}?resourceVersion=${first.body.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(old).toMatchObject({ status: 410, body: { reason: 'Expired' } });
    expect((await h2.req('GET', `${CM}/flood`)).body.data.v.startsWith('39')).toBe(true);
    await h2.server.stop();
  });

  it('list-then-watch misses nothing written between the list and the watch', async () => {
    const list = await h.req('GET', CM);
    await h.req('POST', CM, configMap('between'));
    await h.req('PATCH', `${CM}/a`, { data: { y: '2' } }, MERGE);
    const w = await watch(`resourceVersion=${list.body.metadata.resourceVersion}`);
    expect(eventNames(await w.next(2))).toEqual(['ADDED between', 'MODIFIED a']);
  });

  it('resumes from the last version received, with the writes made while disconnected and nothing missed', async () => {
    const w = await watch('');
    const seen = await w.next(2);
    await h.req('POST', CM, configMap('c'));
    seen.push(...(await w.next(1)));
    w.close();
    await h.req('POST', CM, configMap('d'));
    await h.req('PATCH', `${CM}/c`, { data: { z: '3' } }, MERGE);
    await h.req('DELETE', `${CM}/a`);
    const again = await watch(`resourceVersion=${seen[seen.length - 1].object.metadata.resourceVersion}`);
    seen.push(...(await again.next(3)));
    expect(eventNames(seen)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'ADDED d', 'MODIFIED c', 'DELETED a']);
    const versions = seen.slice(2).map((e) => rvOf(e.object));
    expect([...versions].sort((x, y) => x - y)).toEqual(versions);
  });

  it('a timeoutSeconds beyond what a timer holds keeps the watch open', async () => {
    const w = await watch('timeoutSeconds=3000000&resourceVersion=0');
    await w.next(2);
    await new Promise((r) => setTimeout(r, 50));
    await h.req('POST', CM, configMap('later'));
    expect(eventNames(await w.next(1))).toEqual(['ADDED later']);
  });

  it('ends after timeoutSeconds', async () => {
    const w = await watch('timeoutSeconds=1');
    expect(eventNames(await w.rest())).toEqual(['ADDED a', 'ADDED b']);
  });

  describe('bookmarks', () => {
    it('with allowWatchBookmarks (True, as the Python client sends it): BOOKMARK events carrying only the version', async () => {
      const w = await watch('allowWatchBookmarks=True&resourceVersion=0');
      await w.next(2);
      // A write elsewhere moves the server's version on; the watcher learns it through a bookmark.
      const other = await h.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's' } });
      let bookmark;
      do [bookmark] = await w.next(1);
      while (bookmark.type !== 'BOOKMARK');
      expect(bookmark.object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: other.body.metadata.resourceVersion } });
    });

    it('a bookmark as a timed-out stream ends; none at all unless asked for', async () => {
      const asked = await watch('allowWatchBookmarks=true&timeoutSeconds=1');
      const events = await asked.rest();
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
      const plain = await watch('timeoutSeconds=1');
      await h.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's2' } });
      expect((await plain.rest()).map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
    });
  });

  describe('streaming lists (WatchList)', () => {
    const STREAM = 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

    it('sends the state as ADDED, one BOOKMARK annotated initial-events-end at the synced version, then changes', async () => {
      const w = await watch(STREAM);
      const events = await w.next(3);
      expect(eventNames(events.slice(0, 2))).toEqual(['ADDED a', 'ADDED b']);
      const current = rvOf((await h.req('GET', CM)).body);
      expect(events[2]).toEqual({
        type: 'BOOKMARK',
        object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(current), annotations: { 'k8s.io/initial-events-end': 'true' } } },
      });
      await h.req('POST', CM, configMap('c'));
      expect(eventNames(await w.next(1))).toEqual(['ADDED c']);
    });

    it('with a resourceVersion, the state is at least that new', async () => {
      const rv = rvOf((await h.req('POST', CM, configMap('c'))).body);
      const w = await watch(`${STREAM}&resourceVersion=${rv}`);
      const events = await w.next(4);
      expect(eventNames(events.slice(0, 3))).toEqual(['ADDED a', 'ADDED b', 'ADDED c']);
      expect(rvOf(events[3].object)).toBeGreaterThanOrEqual(rv);
    });

    it('rejects the combinations kube rejects, with 400', async () => {
      const bad: [string, string][] = [
        ['sendInitialEvents=true', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
        ['resourceVersionMatch=NotOlderThan&resourceVersion=1', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
        ['sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'],
      ];
      for (const [query, message] of bad) {
        const res = await h.req('GET', `${CM}?watch=1&${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
        expect(res.body.message).toContain(message);
      }
    });

    it('is off by default: the WatchList feature gate must be on', async () => {
      const off = await startHarness();
      const res = await off.req('GET', `${CM}?watch=1&${STREAM}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
    });
  });

  describe('selectors', () => {
    it('a field-selected watch of pods sees objects enter as ADDED and leave as DELETED', async () => {
      const PODS = '/api/v1/namespaces/default/pods';
      const pod = (name: string, nodeName?: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}) } });
      await h.req('POST', PODS, pod('p1'));
      await h.req('POST', PODS, pod('p2', 'node-1'));
      const w = await watch('fieldSelector=spec.nodeName%3Dnode-1', PODS);
      expect(eventNames(await w.next(1))).toEqual(['ADDED p2']);
      await h.req('PATCH', `${PODS}/p1/status`, { status: { phase: 'Running' } }, MERGE);
      await h.req('DELETE', `${PODS}/p2`);
      await h.req('POST', PODS, pod('p3', 'node-1'));
      expect(eventNames(await w.next(2))).toEqual(['DELETED p2', 'ADDED p3']);
      const phase = await watch('fieldSelector=status.phase%3DRunning', PODS);
      expect(eventNames(await phase.next(1))).toEqual(['ADDED p1']);
    });

    it('events by involvedObject and type, secrets by type', async () => {
      const EVENTS = '/api/v1/namespaces/default/events';
      const event = (name: string, involved: string, type: string) => ({
        metadata: { name },
        involvedObject: { kind: 'Pod', name: involved, namespace: 'default' },
        type,
        reason: 'R',
        message: 'm',
      });
      await h.req('POST', EVENTS, event('e1', 'p1', 'Normal'));
      await h.req('POST', EVENTS, event('e2', 'p2', 'Warning'));
      const byObject = await h.req('GET', `${EVENTS}?fieldSelector=involvedObject.name%3Dp2,involvedObject.kind%3DPod`);
      expect(byObject.body.items.map((i: any) => i.metadata.name)).toEqual(['e2']);
      const w = await watch('fieldSelector=type%3DWarning', EVENTS);
      expect(eventNames(await w.next(1))).toEqual(['ADDED e2']);
      await h.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } });
      await h.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 'opaque' } });
      const secrets = await h.req('GET', '/api/v1/namespaces/default/secrets?fieldSelector=type%3Dkubernetes.io/tls');
      expect(secrets.body.items.map((i: any) => i.metadata.name)).toEqual(['tls']);
    });

    it('an unsupported field label is 400', async () => {
      const res = await h.req('GET', `${CM}?watch=1&fieldSelector=data.x%3D1`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('field label not supported: data.x');
    });
  });

  it('a slow watcher is ended rather than buffered without bound, and resuming loses nothing', async () => {
    const h2 = await startHarness({}, { watchCache: { maxQueuedPerWatcher: 5 } });
    const start = rvOf((await h2.req('GET', CM)).body);
    const slow = await openWatch(h2, `${CM}?watch=1&resourceVersion=${start}`);
    const fast = await openWatch(h2, `${CM}?watch=1&resourceVersion=${start}`);
    const fastSeen = fast.next(20);
    for (let i = 0; i < 20; i++) await h2.req('POST', CM, configMap(`n${String(i).padStart(2, '0')}`));
    // The fast watcher got everything while the slow one was not reading.
    expect((await fastSeen).length).toBe(20);
    const got = await slow.rest();
    expect(got.length).toBeLessThan(20);
    let last = got[got.length - 1].object.metadata.resourceVersion;
    while (got.length < 20) {
      const again = await openWatch(h2, `${CM}?watch=1&resourceVersion=${last}&timeoutSeconds=1`);
      const more = await again.rest();
      got.push(...more);
      last = more.length ? more[more.length - 1].object.metadata.resourceVersion : last;
    }
    expect(eventNames(got)).toEqual(Array.from({ length: 20 }, (_, i) => `ADDED n${String(i).padStart(2, '0')}`));
    fast.close();
    await h2.server.stop();
  });
});

describe('deletecollection', () => {
  it('deletes what the selectors select, and nothing with dryRun', async () => {
    const h = await startHarness();
    for (const [name, tier] of [['f1', 'front'], ['f2', 'front'], ['b1', 'back']]) {
      await h.req('POST', CM, configMap(name, {}, { labels: { tier } }));
    }
    const dry = await h.req('DELETE', `${CM}?labelSelector=tier%3Dfront&dryRun=All`);
    expect(dry.status).toBe(200);
    expect(dry.body.items.map((i: any) => i.metadata.name)).toEqual(['f1', 'f2']);
    expect((await h.req('GET', CM)).body.items.length).toBe(3);
    const res = await h.req('DELETE', `${CM}?labelSelector=tier%3Dfront`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('ConfigMapList');
    const left = await h.req('GET', CM);
    expect(left.body.items.map((i: any) => i.metadata.name)).toEqual(['b1']);
    await h.req('DELETE', `${CM}?fieldSelector=metadata.name%3Db1`);
    expect((await h.req('GET', CM)).body.items).toEqual([]);
  });
});
