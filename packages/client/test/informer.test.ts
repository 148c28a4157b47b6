import { core } from '@kapi/api-core/client';
import { startTestServer, type TestServer } from '@kapi/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, Informer, InformerFactory, objectKey } from '../src/index.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/**
 * A client whose watch connections the test can cut, and hold back from reconnecting, through the test server's
 * in-process fetch: the informer sees a dropped connection as it would a network failure.
 */
function cuttableClient(server: TestServer) {
  const watches = new Set<AbortController>();
  let gate: Promise<void> | undefined;
  const client = createClient(
    {
      server: 'http://kapi.test',
      fetch: async (request) => {
        if (!new URL(request.url).searchParams.has('watch')) return server.fetch(request);
        await gate;
        const cut = new AbortController();
        watches.add(cut);
        const res = await server.fetch(request);
        // The body goes through a pipe the test can break, as a dropped connection breaks it.
        const pipe = new TransformStream<Uint8Array, Uint8Array>();
        res.body!.pipeTo(pipe.writable, { signal: AbortSignal.any([request.signal, cut.signal]) }).catch(() => undefined);
        return new Response(pipe.readable, { status: res.status, headers: res.headers });
      },
    },
    { core },
  );
  return {
    client,
    watchCount: () => watches.size,
    /** Ends every open watch and holds new ones until the returned function is called. */
    cut(): () => void {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      for (const w of watches) w.abort();
      watches.clear();
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('Informer', () => {
  it('lists then watches, and after a forced 410 relists: every object seen, the cache equal to the server', { timeout: 30_000 }, async () => {
    // A small watch cache window: a watch resumed from before the burst below is answered 410 Gone.
    const server = await startTestServer({ listen: false, apiServer: { watchCache: { historyCapacity: 20 } } });
    servers.push(server);
    const ns = await server.createNamespace('burst');
    const { client, cut, watchCount } = cuttableClient(server);
    const cms = client.core.v1.configmaps.namespace(ns);
    for (let i = 0; i < 30; i++) await cms.create({ metadata: { name: `before-${i}` }, data: { i: String(i) } });

    const errors: unknown[] = [];
    const informer = new Informer(cms, { pageSize: 7, onError: (e) => errors.push(e) });
    const added = new Set<string>();
    const deleted = new Set<string>();
    let updates = 0;
    informer.on({
      add: (o) => added.add(o.metadata!.name!),
      update: () => updates++,
      delete: (o) => deleted.add(o.metadata!.name!),
    });
    informer.start();
    await informer.waitForSync();
    expect(informer.store.size).toBe((await cms.list()).items.length); // listed in pages of 7
    expect(informer.store.size).toBeGreaterThanOrEqual(30);
    await until(() => watchCount() === 1, 'the watch');

    // A burst while watching: seen as events.
    for (let i = 0; i < 10; i++) await cms.patch(`before-${i}`, { data: { i: `${i}-watched` } });
    await until(() => informer.store.get(`${ns}/before-9`)?.data?.i === '9-watched', 'watched updates');
    expect(informer.lists).toBe(1);

    // The connection drops; a burst larger than the server's window happens before the informer reconnects.
    const release = cut();
    for (let i = 0; i < 30; i++) await cms.create({ metadata: { name: `during-${i}` } });
    for (let i = 0; i < 10; i++) await cms.delete(`before-${i}`);
    for (let i = 10; i < 20; i++) await cms.patch(`before-${i}`, { data: { i: `${i}-missed` } });
    release();

    // The resumed watch gets 410; the informer lists again and tells its handlers what it missed.
    await until(() => informer.lists === 2, 'a relist');
    expect(errors.some((e) => (e as Error).name === 'AbortError')).toBe(true);
    for (let i = 0; i < 5; i++) await cms.create({ metadata: { name: `after-${i}` } });
    await until(() => informer.store.get(`${ns}/after-4`) !== undefined, 'events after the relist');

    const server_ = await cms.list();
    const cached = new Map(informer.store.list().map((o) => [objectKey(o), o.metadata?.resourceVersion]));
    const listed = new Map(server_.items.map((o) => [objectKey(o), o.metadata?.resourceVersion]));
    expect(cached).toEqual(listed);
    for (let i = 0; i < 30; i++) expect(added.has(`during-${i}`)).toBe(true);
    for (let i = 0; i < 5; i++) expect(added.has(`after-${i}`)).toBe(true);
    expect([...deleted].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `before-${i}`).sort());
    expect(informer.store.get(`${ns}/before-15`)?.data?.i).toBe('15-missed');
    expect(updates).toBeGreaterThanOrEqual(20);
    await informer.stop();
    await client.close();
  });

  it('indexes by namespace and owner, and hands late handlers what it has', async () => {
    const server = await startTestServer({ listen: false });
    servers.push(server);
    const a = await server.createNamespace('a');
    const b = await server.createNamespace('b');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    const owner = await client.core.v1.configmaps.namespace(a).create({ metadata: { name: 'owner' } });
    await client.core.v1.configmaps.namespace(a).create({
      metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] },
    });
    await client.core.v1.configmaps.namespace(b).create({ metadata: { name: 'other' } });

    const informer = new Informer(client.core.v1.configmaps, {
      labelSelector: undefined,
      indexers: { hasData: (o) => [o.data ? 'yes' : 'no'] },
    });
    informer.start();
    await informer.waitForSync();
    expect(informer.store.byIndex('namespace', b).map((o) => o.metadata?.name).filter((n) => n !== 'kube-root-ca.crt')).toEqual(['other']);
    expect(informer.store.byIndex('owner', owner.metadata!.uid!).map((o) => o.metadata?.name)).toEqual(['owned']);
    expect(informer.store.byIndex('hasData', 'no').length).toBeGreaterThanOrEqual(3);
    const late: string[] = [];
    informer.on({ add: (o) => late.push(objectKey(o)) });
    expect(late).toContain(`${a}/owned`);
    expect(() => informer.store.byIndex('missing', 'x')).toThrow(/no index/);
    await informer.stop();
  });

  it('shares one informer per resource and selector through a factory', async () => {
    const server = await startTestServer({ listen: false });
    servers.push(server);
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    const factory = new InformerFactory();
    const one = factory.informer(client.core.v1.configmaps);
    const same = factory.informer(client.core.v1.configmaps);
    const selected = factory.informer(client.core.v1.configmaps, { labelSelector: 'x=y' });
    expect(same).toBe(one);
    expect(selected).not.toBe(one);
    await factory.start();
    expect(one.hasSynced && selected.hasSynced).toBe(true);
    await factory.stop();
  });

  it('resyncs: every cached object goes to the update handlers again each period', async () => {
    const server = await startTestServer({ listen: false });
    servers.push(server);
    const ns = await server.createNamespace('resync');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    await client.core.v1.configmaps.namespace(ns).create({ metadata: { name: 'x' } });
    const informer = new Informer(client.core.v1.configmaps.namespace(ns), { resyncPeriodMs: 50 });
    const same: boolean[] = [];
    informer.on({ update: (o, n) => same.push(o === n) });
    informer.start();
    await until(() => same.length >= 4, 'resyncs');
    expect(same.every(Boolean)).toBe(true);
    await informer.stop();
  });
});
