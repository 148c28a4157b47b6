// kube's resource version tables (docs/lists-and-watches.md) for get and list ("Resource version semantics"), cell by cell, and chunked
// listing ("Chunked listing"): what a client sees for each combination of resourceVersion, resourceVersionMatch,
// limit and continue.
import { beforeAll, describe, expect, it } from 'vitest';
import { configMap, settled, startHarness, type Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('resource version semantics of get and list', () => {
  let h: Harness;
  /** rv1: a created; rv2: b created; rv3: a changed; then c created at `latest`. */
  let rv1: number;
  let rv2: number;
  let rv3: number;
  let latest: number;
  const list = (query: string) => h.req('GET', `${CM}?${query}`);
  const names = (body: any) => body.items.map((i: any) => `${i.metadata.name}=${i.data.v}`);
  const rvOf = (body: any) => Number(body.metadata.resourceVersion);

  beforeAll(async () => {
    // A short wait for versions not reached yet, so the 504 cells answer quickly.
    h = await startHarness({}, { watchCache: { freshnessWaitMs: 200 } });
    // The controllers' writes (default ServiceAccounts) done, so the versions below are the latest.
    await settled(h);
    rv1 = Number((await h.req('POST', CM, configMap('a', { v: 'old' }))).body.metadata.resourceVersion);
    rv2 = Number((await h.req('POST', CM, configMap('b', { v: 'b' }))).body.metadata.resourceVersion);
    rv3 = Number((await h.req('PATCH', `${CM}/a`, { data: { v: 'new' } }, MERGE)).body.metadata.resourceVersion);
    latest = Number((await h.req('POST', CM, configMap('c', { v: 'c' }))).body.metadata.resourceVersion);
    expect(rv1 < rv2 && rv2 < rv3 && rv3 < latest).toBe(true);
  });

  describe('list', () => {
    const current = ['a=new', 'b=b', 'c=c'];
    // [resourceVersionMatch, paging, resourceVersion, what kube's table says] → what a client must see.
    const rows: [string, string, string, string, (r: { status: number; body: any }) => void][] = [
      ['', '', 'unset', 'Most recent', (r) => (expect(rvOf(r.body)).toBe(latest), expect(names(r.body)).toEqual(current))],
      ['', '', '0', 'Any', (r) => (expect(rvOf(r.body)).toBeGreaterThanOrEqual(rv1), expect(r.body.items.length).toBeGreaterThan(0))],
      ['', '', 'rv1', 'Not older than', (r) => (expect(rvOf(r.body)).toBeGreaterThanOrEqual(rv1), expect(names(r.body)).toEqual(current))],
      ['', 'limit=2', 'unset', 'Most recent', (r) => (expect(rvOf(r.body)).toBe(latest), expect(names(r.body)).toEqual(['a=new', 'b=b']))],
      ['', 'limit=2', '0', 'Any', (r) => expect(r.body.items.length).toBe(2)],
      ['', 'limit=5', 'rv2', 'Exact', (r) => (expect(rvOf(r.body)).toBe(rv2), expect(names(r.body)).toEqual(['a=old', 'b=b']))],
      ['Exact', '', 'unset', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['Exact', '', '0', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['Exact', '', 'rv1', 'Exact', (r) => (expect(rvOf(r.body)).toBe(rv1), expect(names(r.body)).toEqual(['a=old']))],
      ['Exact', 'limit=1', 'unset', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['Exact', 'limit=1', '0', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['Exact', 'limit=1', 'rv2', 'Exact', (r) => (expect(rvOf(r.body)).toBe(rv2), expect(names(r.body)).toEqual(['a=old']), expect(r.body.metadata.remainingItemCount).toBe(1))],
      ['NotOlderThan', '', 'unset', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['NotOlderThan', '', '0', 'Any', (r) => expect(r.body.items.length).toBeGreaterThan(0)],
      ['NotOlderThan', '', 'rv3', 'Not older than', (r) => (expect(rvOf(r.body)).toBeGreaterThanOrEqual(rv3), expect(names(r.body)).toEqual(current))],
      ['NotOlderThan', 'limit=1', 'unset', 'Invalid', (r) => expect(r.status).toBe(400)],
      ['NotOlderThan', 'limit=1', '0', 'Any', (r) => expect(r.body.items.length).toBe(1)],
      ['NotOlderThan', 'limit=1', 'rv2', 'Not older than', (r) => (expect(rvOf(r.body)).toBeGreaterThanOrEqual(rv2), expect(names(r.body)).toEqual(['a=new']))],
    ];
    for (const [match, paging, rv, meaning, check] of rows) {
      it(`resourceVersionMatch=${match || 'unset'}, ${paging || 'limit unset'}, resourceVersion=${rv}: ${meaning}`, async () => {
        const value = { unset: undefined, '0': '0', rv1: String(rv1), rv2: String(rv2), rv3: String(rv3) }[rv];
        const query = [paging, value !== undefined ? `resourceVersion=${value}` : '', match ? `resourceVersionMatch=${match}` : '']
          .filter(Boolean)
          .join('&');
        const res = await list(query);
        if (meaning === 'Invalid') {
          expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
          expect(res.body.message).toMatch(/^ListOptions\.meta\.k8s\.io "" is invalid: resourceVersionMatch: Forbidden: /);
        } else {
          expect(res.status).toBe(200);
          expect(res.body.kind).toBe('ConfigMapList');
        }
        check(res);
      });
    }

    it('continue: with resourceVersion unset or "0" it continues at the first chunk\'s version; another value is 400', async () => {
      const first = await list('limit=1');
      const token = first.body.metadata.continue;
      expect(token).toBeTruthy();
      await h.req('POST', CM, configMap('aa', { v: 'later' }));
      for (const rv of ['', '&resourceVersion=0']) {
        const next = await list(`limit=1&continue=${encodeURIComponent(token)}${rv}`);
        expect(next.status).toBe(200);
        expect(rvOf(next.body)).toBe(latest);
        // 'aa' sorts after 'a' but was created after the first chunk: not in this listing.
        expect(names(next.body)).toEqual(['b=b']);
      }
      const bad = await list(`limit=1&continue=${encodeURIComponent(token)}&resourceVersion=${rv1}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' });
      await h.req('DELETE', `${CM}/aa`);
    });

    it('a resourceVersion the server has not reached: 504 with Retry-After and "Too large resource version"', async () => {
      const future = latest + 1000;
      for (const query of [`resourceVersion=${future}`, `resourceVersion=${future}&resourceVersionMatch=NotOlderThan`]) {
        const res = await list(query);
        expect(res.status).toBe(504);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.body).toMatchObject({
          kind: 'Status',
          reason: 'Timeout',
          code: 504,
          details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        });
        expect(res.body.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
      }
    });

    it('a resourceVersion reached while the request waits is served', async () => {
      const now = Number((await list('')).body.metadata.resourceVersion);
      const pending = list(`resourceVersion=${now + 1}&resourceVersionMatch=NotOlderThan`);
      await h.req('POST', CM, configMap('waited-for'));
      const res = await pending;
      expect(res.status).toBe(200);
      expect(rvOf(res.body)).toBeGreaterThanOrEqual(now + 1);
      expect(res.body.items.map((i: any) => i.metadata.name)).toContain('waited-for');
      await h.req('DELETE', `${CM}/waited-for`);
    });

    it('rejects what kube rejects: unknown resourceVersionMatch, sendInitialEvents on a list, a malformed resourceVersion', async () => {
      const unknown = await list(`resourceVersion=${rv1}&resourceVersionMatch=Newest`);
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""');
      const initial = await list('sendInitialEvents=true');
      expect(initial.status).toBe(400);
      expect(initial.body.message).toContain('sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
      const malformed = await list('resourceVersion=abc');
      expect(malformed.status).toBe(400);
      expect(malformed.body.kind).toBe('Status');
    });
  });

  describe('get', () => {
    it('resourceVersion unset: Most recent', async () => {
      const res = await h.req('GET', `${CM}/a`);
      expect(res.body.data.v).toBe('new');
      expect(Number(res.body.metadata.resourceVersion)).toBe(rv3);
    });
    it('"0": Any (the watch cache)', async () => {
      const res = await h.req('GET', `${CM}/a?resourceVersion=0`);
      expect(res.status).toBe(200);
      expect(res.body.metadata.name).toBe('a');
    });
    it('another value: Not older than it', async () => {
      const res = await h.req('GET', `${CM}/a?resourceVersion=${rv1}`);
      expect(res.status).toBe(200);
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rv1);
      expect(res.body.data.v).toBe('new');
      const missing = await h.req('GET', `${CM}/nope?resourceVersion=${rv1}`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('configmaps "nope" not found');
    });
    it('a version the server has not reached: 504 with Retry-After', async () => {
      const res = await h.req('GET', `${CM}/a?resourceVersion=${latest + 1000}`);
      expect(res.status).toBe(504);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.details.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    });
  });
});

describe('chunked listing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    for (let i = 0; i < 7; i++) await h.req('POST', CM, configMap(`c${i}`, { i: String(i) }, { labels: { odd: String(i % 2 === 1) } }));
  });

  it('chunks share one resourceVersion and form one snapshot, whatever is written between them', async () => {
    const seen: string[] = [];
    let token = '';
    let rv = '';
    let chunk = 0;
    do {
      const res = await h.req('GET', `${CM}?limit=3${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      expect(res.status).toBe(200);
      rv ||= res.body.metadata.resourceVersion;
      expect(res.body.metadata.resourceVersion).toBe(rv);
      seen.push(...res.body.items.map((i: any) => i.metadata.name));
      token = res.body.metadata.continue ?? '';
      const remaining = res.body.metadata.remainingItemCount;
      if (token) expect(remaining).toBe(7 - seen.length);
      else expect(remaining).toBeUndefined();
      if (chunk++ === 0) {
        // Changes after the listing's version are not shown in its later chunks.
        await h.req('DELETE', `${CM}/c5`);
        await h.req('POST', CM, configMap('c3a'));
      }
    } while (token);
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    const now = await h.req('GET', CM);
    expect(now.body.items.map((i: any) => i.metadata.name)).toEqual(['c0', 'c1', 'c2', 'c3', 'c3a', 'c4', 'c6']);
  });

  it('remainingItemCount is omitted with selectors, and on the last chunk', async () => {
    const first = await h.req('GET', `${CM}?limit=2&labelSelector=odd%3Dtrue`);
    expect(first.body.items.map((i: any) => i.metadata.name)).toEqual(['c1', 'c3']);
    expect(first.body.metadata.continue).toBeTruthy();
    expect(first.body.metadata.remainingItemCount).toBeUndefined();
    const all = await h.req('GET', `${CM}?limit=100`);
    expect(all.body.metadata.continue).toBeUndefined();
    expect(all.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('a malformed continue token is 400', async () => {
    const res = await h.req('GET', `${CM}?limit=1&continue=not-a-token`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('continue key is not valid: not-a-token');
  });
});

describe('history retention', () => {
  it('after compaction, an expired continue token and an Exact read of a compacted version are 410', async () => {
    const h = await startHarness({ ListFromCacheSnapshot: false }, { compactionIntervalMs: 0 });
    for (let i = 0; i < 3; i++) await h.req('POST', CM, configMap(`k${i}`));
    const first = await h.req('GET', `${CM}?limit=1`);
    const old = first.body.metadata.resourceVersion;
    await h.req('POST', CM, configMap('later'));
    await h.storage.compact(await h.storage.currentRevision());
    const cont = await h.req('GET', `${CM}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect(cont.status).toBe(410);
    expect(cont.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(cont.body.message).toMatch(/^The provided continue parameter is too old/);
    const exact = await h.req('GET', `${CM}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(410);
    expect(exact.body.reason).toBe('Expired');
  });

  it('the compaction interval bounds history: the server compacts by itself and old versions turn 410', async () => {
    const h = await startHarness({}, { compactionIntervalMs: 50 });
    const first = await h.req('POST', CM, configMap('x'));
    const old = first.body.metadata.resourceVersion;
    let status = 0;
    for (let i = 0; i < 100 && status !== 410; i++) {
      await h.req('PATCH', `${CM}/x`, { data: { i: String(i) } }, MERGE);
      await new Promise((r) => setTimeout(r, 20));
      status = (await h.req('GET', `${CM}?resourceVersion=${old}&resourceVersionMatch=Exact`)).status;
    }
    expect(status).toBe(410);
    await h.server.stop();
  });
});
