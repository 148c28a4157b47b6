import { core } from '@kapi/api-core/client';
import { startTestServer, type TestServer } from '@kapi/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, createController, isNotFound, type Controller, type ReconcileRequest } from '../src/index.js';

let server: TestServer | undefined;
let controllers: Controller<any>[] = [];
afterEach(async () => {
  await Promise.all(controllers.map((c) => c.stop()));
  controllers = [];
  await server?.stop();
});

async function until<T>(check: () => T | Promise<T>, what: string): Promise<NonNullable<T>> {
  for (let i = 0; i < 500; i++) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('createController', () => {
  it('reconciles a kind, recreates what it owns when that is deleted, and retries failures with backoff', async () => {
    server = await startTestServer({ listen: false });
    const ns = await server.createNamespace('ctl');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    const cms = client.core.v1.configmaps;
    const secrets = client.core.v1.secrets;
    const requests: ReconcileRequest[] = [];
    let failOnce = true;
    const controller = createController({
      for: cms,
      owns: [secrets],
      concurrency: 4,
      onError: () => undefined,
      async reconcile(request, { object }) {
        requests.push(request);
        if (!object || object.metadata?.labels?.copy !== 'yes') return;
        if (object.metadata.name === 'flaky' && failOnce) {
          failOnce = false;
          throw new Error('first attempt fails');
        }
        const mine = secrets.namespace(request.namespace!);
        try {
          await mine.get(`${request.name}-copy`);
        } catch (error) {
          if (!isNotFound(error)) throw error;
          await mine.create({
            metadata: {
              name: `${request.name}-copy`,
              ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: request.name, uid: object.metadata.uid!, controller: true }],
            },
            stringData: object.data ?? {},
          });
        }
      },
    });
    controllers.push(controller);
    await controller.start();

    await cms.namespace(ns).create({ metadata: { name: 'src', labels: { copy: 'yes' } }, data: { k: 'v' } });
    await cms.namespace(ns).create({ metadata: { name: 'flaky', labels: { copy: 'yes' } } });
    await cms.namespace(ns).create({ metadata: { name: 'ignored' } });
    const copy = await until(() => secrets.namespace(ns).get('src-copy').catch(() => undefined), 'the copy');
    expect(copy.data).toEqual({ k: Buffer.from('v').toString('base64') });
    // The failing reconcile is retried.
    await until(() => secrets.namespace(ns).get('flaky-copy').catch(() => undefined), 'the retried copy');
    expect(requests.filter((r) => r.name === 'flaky').length).toBeGreaterThanOrEqual(2);

    // Deleting the owned Secret reconciles its owner, which makes it again.
    const before = requests.filter((r) => r.name === 'src').length;
    await secrets.namespace(ns).delete('src-copy');
    const again = await until(async () => {
      const s = await secrets.namespace(ns).get('src-copy').catch(() => undefined);
      return s && s.metadata?.uid !== copy.metadata?.uid ? s : undefined;
    }, 'the copy made again');
    expect(again.metadata?.name).toBe('src-copy');
    expect(requests.filter((r) => r.name === 'src').length).toBeGreaterThan(before);
    expect(requests.every((r) => r.namespace === ns)).toBe(true);
  });

  it('never reconciles one object twice at once, even with many workers and a burst of changes', async () => {
    server = await startTestServer({ listen: false });
    const ns = await server.createNamespace('serial');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    const cms = client.core.v1.configmaps.namespace(ns);
    const active = new Set<string>();
    let overlap = false;
    let calls = 0;
    const controller = createController({
      for: cms,
      concurrency: 8,
      async reconcile({ name }) {
        calls++;
        if (active.has(name)) overlap = true;
        active.add(name);
        await new Promise((r) => setTimeout(r, 5));
        active.delete(name);
      },
    });
    controllers.push(controller);
    await controller.start();
    await cms.create({ metadata: { name: 'hot' } });
    for (let i = 0; i < 20; i++) await cms.patch('hot', { data: { i: String(i) } });
    await until(() => controller.informer.store.getByName('hot', ns)?.data?.i === '19', 'the last change');
    await until(() => controller.queue.length === 0 && active.size === 0, 'an idle queue');
    expect(overlap).toBe(false);
    // Changes that arrive while one reconcile runs fold into one more: fewer calls than changes.
    expect(calls).toBeLessThanOrEqual(22);
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('requeues after the delay a reconcile asks for', async () => {
    server = await startTestServer({ listen: false });
    const ns = await server.createNamespace('requeue');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch }, { core });
    let calls = 0;
    const controller = createController({
      for: client.core.v1.configmaps.namespace(ns),
      async reconcile({ name }) {
        if (name !== 'tick') return;
        calls++;
        return calls < 3 ? { requeueAfterMs: 20 } : undefined;
      },
    });
    controllers.push(controller);
    await controller.start();
    await client.core.v1.configmaps.namespace(ns).create({ metadata: { name: 'tick' } });
    await until(() => calls >= 3, 'three reconciles');
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(3);
  });
});
