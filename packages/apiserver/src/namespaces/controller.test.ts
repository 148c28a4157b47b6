import type { KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_GROUPS, ALL_PLUGINS } from '../../test/harness.js';
import { createAdmissionChain } from '../admission/chain.js';
import { groupPlugin } from '../plugin.js';
import { createResourceRegistry, type ResourceRegistry } from '../registry/resources.js';
import { createStore, type RequestContext, type Store } from '../registry/store.js';
import { createObjectStorage } from '../storage/object-storage.js';
import { createNamespaceController } from './controller.js';

const SYSTEM = { username: 'system:apiserver', groups: ['system:masters'] };

/** Polls a condition the controller brings about in the background (bounded; no timing is asserted). */
async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('namespace controller', () => {
  const controllers: { stop(): void }[] = [];
  afterEach(() => controllers.splice(0).forEach((c) => c.stop()));

  /** A Store wired to a controller, as the server wires them; over `backend` (a restart keeps it). */
  const start = (backend: StorageBackend) => {
    const registry: ResourceRegistry = createResourceRegistry(ALL_PLUGINS);
    let controller: ReturnType<typeof createNamespaceController> | undefined;
    const store: Store = createStore({
      storage: createObjectStorage(backend),
      admission: createAdmissionChain([]),
      onWrite: (entry, type, obj) => controller?.onWrite(entry, type, obj),
    });
    controller = createNamespaceController(store, registry, SYSTEM, () => {});
    controllers.push(controller);
    const ctx = (plural: string, namespace = '', subresource = ''): RequestContext => ({
      entry: registry.entries.find((e) => e.info.plural === plural)!, namespace, user: SYSTEM, dryRun: false, subresource,
    });
    return { store, controller, ctx };
  };
  const deployment = (name: string): KubeObject => ({
    metadata: { name },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  });

  it('empties a terminating namespace of every kind, waits for content held by finalizers, then removes it', async () => {
    const { store, ctx } = start(createMemoryBackend());
    await store.create(ctx('namespaces'), { metadata: { name: 'team' } });
    await store.create(ctx('configmaps', 'team'), { metadata: { name: 'c' } });
    await store.create(ctx('deployments', 'team'), deployment('d'));
    await store.create(ctx('configmaps', 'team'), { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await store.create(ctx('namespaces'), { metadata: { name: 'other' } });
    await store.create(ctx('configmaps', 'other'), { metadata: { name: 'keep' } });

    const deleted = await store.delete(ctx('namespaces'), 'team');
    expect(deleted.removed).toBe(false);
    expect(deleted.obj.status).toEqual({ phase: 'Terminating' });
    await until(async () => !(await store.find(ctx('deployments', 'team'), 'd')) && !(await store.find(ctx('configmaps', 'team'), 'c')), 'content deletion');
    const held = await store.find(ctx('configmaps', 'team'), 'held');
    expect((held!.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeDefined();
    expect(await store.find(ctx('namespaces'), 'team')).toBeDefined();

    await store.update(ctx('configmaps', 'team'), 'held', (current) => ({ ...current!, metadata: { ...current!.metadata, finalizers: [] } }));
    await until(async () => !(await store.find(ctx('namespaces'), 'team')), 'namespace removal');
    expect(await store.find(ctx('configmaps', 'other'), 'keep')).toBeDefined();
  });

  it('picks up a namespace left Terminating when it starts again (resync)', async () => {
    const backend = createMemoryBackend();
    const first = start(backend);
    await first.store.create(first.ctx('namespaces'), { metadata: { name: 'left' } });
    await first.store.create(first.ctx('configmaps', 'left'), { metadata: { name: 'c' } });
    first.controller.stop();
    await first.store.delete(first.ctx('namespaces'), 'left');
    expect(await first.store.find(first.ctx('configmaps', 'left'), 'c')).toBeDefined();

    const second = start(backend);
    await second.controller.resync();
    await until(async () => !(await second.store.find(second.ctx('namespaces'), 'left')), 'namespace removal after resync');
    expect(await second.store.find(second.ctx('configmaps', 'left'), 'c')).toBeUndefined();
  });

  it('deletes content of every group\'s kinds, and only in the terminating namespace', async () => {
    const { store, ctx } = start(createMemoryBackend());
    const content: [string, KubeObject][] = [
      ['configmaps', { metadata: { name: 'x' } }],
      ['secrets', { metadata: { name: 'x' }, type: 'Opaque' }],
      ['serviceaccounts', { metadata: { name: 'x' } }],
      ['deployments', deployment('x')],
      ['roles', { metadata: { name: 'x' }, rules: [] }],
      ['rolebindings', { metadata: { name: 'x' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' }, subjects: [] }],
      ['leases', { metadata: { name: 'x' }, spec: {} }],
      ['poddisruptionbudgets', { metadata: { name: 'x' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } }],
      ['pods', { metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i' }] } }],
      // As the API's defaulting leaves a Service (the store does not default; kube's validation wants these set).
      ['services', { metadata: { name: 'x' }, spec: { type: 'ClusterIP', sessionAffinity: 'None', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } }],
      ['events', { metadata: { name: 'x' }, involvedObject: { kind: 'Pod', name: 'x' }, reason: 'Tested', message: 'm' }],
      ['replicasets', { ...deployment('x'), metadata: { name: 'x' } }],
      ['flunders', { metadata: { name: 'x' } }],
    ];
    for (const ns of ['doomed', 'kept']) {
      await store.create(ctx('namespaces'), { metadata: { name: ns } });
      for (const [plural, obj] of content) await store.create(ctx(plural, ns), structuredClone(obj));
    }
    await store.delete(ctx('namespaces'), 'doomed');
    await until(async () => !(await store.find(ctx('namespaces'), 'doomed')), 'namespace removal');
    for (const [plural] of content) {
      expect([plural, await store.find(ctx(plural, 'doomed'), 'x')]).toEqual([plural, undefined]);
      expect([plural, !!(await store.find(ctx(plural, 'kept'), 'x'))]).toEqual([plural, true]);
    }
  });

  it('removes only its own finalizer: a namespace with another one stays Terminating, empty, until that one goes', async () => {
    const { store, ctx } = start(createMemoryBackend());
    const created = await store.create(ctx('namespaces'), { metadata: { name: 'shared' }, spec: { finalizers: ['example.com/other'] } });
    expect(created.spec).toEqual({ finalizers: ['example.com/other', 'kubernetes'] });
    await store.create(ctx('configmaps', 'shared'), { metadata: { name: 'c' } });
    await store.delete(ctx('namespaces'), 'shared');
    await until(async () => {
      const ns = await store.find(ctx('namespaces'), 'shared');
      return (ns?.spec as { finalizers?: string[] } | undefined)?.finalizers?.join() === 'example.com/other';
    }, 'the kubernetes finalizer removed');
    expect(await store.find(ctx('configmaps', 'shared'), 'c')).toBeUndefined();
    expect((await store.find(ctx('namespaces'), 'shared'))!.status).toEqual({ phase: 'Terminating' });
    await store.update(ctx('namespaces', '', 'finalize'), 'shared', (current) => ({ ...current!, spec: { finalizers: [] } }));
    expect(await store.find(ctx('namespaces'), 'shared')).toBeUndefined();
  });
});
