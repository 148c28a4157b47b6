import { describe, expect, it } from 'vitest';
import type { GroupPlugin } from '../src/index.js';
import { ALL_PLUGINS, configMap, startHarness } from './harness.js';

/** Polls until `check` holds (the informer calls back on a later turn of the event loop). */
async function eventually(check: () => boolean, ms = 5000) {
  for (const until = Date.now() + ms; !check(); ) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('PluginHost.onObjectsChange', () => {
  it('calls back for every change of the resource, or only for the namespace and name asked for', async () => {
    const calls = { all: 0, namespace: 0, one: 0 };
    const watcher: GroupPlugin = {
      ...ALL_PLUGINS[0],
      install(host) {
        ALL_PLUGINS[0].install?.(host);
        const entry = host.registry.lookup('', 'v1', 'configmaps')!;
        host.onObjectsChange(entry, () => void calls.all++);
        host.onObjectsChange(entry, () => void calls.namespace++, { namespace: 'kube-system' });
        host.onObjectsChange(entry, () => void calls.one++, { namespace: 'kube-system', name: 'watched' });
      },
    };
    const h = await startHarness({}, { plugins: [watcher, ...ALL_PLUGINS.slice(1)] });
    // Once at start, each.
    await eventually(() => calls.all >= 1 && calls.namespace >= 1 && calls.one >= 1);
    const started = { ...calls };

    expect((await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('elsewhere'))).status).toBe(201);
    await eventually(() => calls.all > started.all);
    expect((await h.req('POST', '/api/v1/namespaces/kube-system/configmaps', configMap('other'))).status).toBe(201);
    await eventually(() => calls.namespace > started.namespace);
    // The writes above have been seen by every watch: the one-object watch had nothing to report.
    expect(calls.one).toBe(started.one);

    expect((await h.req('POST', '/api/v1/namespaces/kube-system/configmaps', configMap('watched'))).status).toBe(201);
    await eventually(() => calls.one > started.one);
    const before = calls.one;
    expect((await h.req('DELETE', '/api/v1/namespaces/kube-system/configmaps/watched')).status).toBe(200);
    await eventually(() => calls.one > before);
  });
});
