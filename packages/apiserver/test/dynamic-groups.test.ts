import { group as wardle } from '@kapi/api-wardle';
import { describe, expect, it } from 'vitest';
import type { GroupPlugin, PluginHost } from '../src/index.js';
import { ALL_PLUGINS, startHarness, dataPlugin } from './harness.js';

const FLUNDERS = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
const flunder = (name: string) => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name }, spec: {} });

/** A server without the wardle group, and the plugin host its plugins were given (to install wardle later). */
async function startWithoutWardle() {
  let host: PluginHost | undefined;
  const grab: GroupPlugin = { ...ALL_PLUGINS[0], install: (h) => { ALL_PLUGINS[0].install?.(h); host = h; } };
  const plugins = [grab, ...ALL_PLUGINS.slice(1).filter((p) => p.definition !== wardle)];
  const h = await startHarness({}, { plugins });
  return { ...h, host: host! };
}

async function readLines(res: Response, count: number): Promise<any[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const lines: any[] = [];
  while (lines.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(text.slice(0, nl)));
      text = text.slice(nl + 1);
    }
  }
  reader.releaseLock();
  return lines;
}

describe('groups installed while the server runs', () => {
  it('serves a group installed after start on every path shape, with what storage already held, and stops serving it when uninstalled', async () => {
    const h = await startWithoutWardle();
    expect((await h.req('GET', FLUNDERS)).status).toBe(404);
    expect((await h.req('GET', '/apis/wardle.example.com/v1alpha1')).status).toBe(404);
    // An object stored before the group is served (by an earlier run, say) is in the collection once it is.
    const stored = { ...flunder('old'), metadata: { name: 'old', namespace: 'default', uid: 'u-old', creationTimestamp: '2026-01-01T00:00:00Z' } };
    await h.storage.create('/registry/wardle.example.com/flunders/default/old', new TextEncoder().encode(JSON.stringify(stored)));

    const installed = await h.host.installGroup(dataPlugin(wardle));
    expect(installed.entries.map((e) => e.info.plural)).toContain('flunders');
    const list = await h.req('GET', FLUNDERS);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['old']);
    // Served from the watch cache too (resourceVersion=0), holding the same.
    expect((await h.req('GET', `${FLUNDERS}?resourceVersion=0`)).body.items.map((i: any) => i.metadata.name)).toEqual(['old']);
    const discovery = await h.req('GET', '/apis');
    expect(discovery.body.groups.map((g: any) => g.name)).toContain('wardle.example.com');
    const openapi = await h.req('GET', '/openapi/v3');
    expect(Object.keys(openapi.body.paths)).toContain('apis/wardle.example.com/v1alpha1');

    const watch = await h.server.fetch(new Request(`http://kapi.test${FLUNDERS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`));
    expect(watch.status).toBe(200);
    const created = await h.req('POST', FLUNDERS, flunder('new'));
    expect(created.status).toBe(201);
    const [event] = await readLines(watch, 1);
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'new' } } });

    installed.uninstall();
    // The open watch ends; requests are 404 and discovery forgets the group.
    const rest = await readLines(watch, 1);
    expect(rest).toEqual([]);
    expect((await h.req('GET', FLUNDERS)).status).toBe(404);
    expect((await h.req('GET', '/apis')).body.groups.map((g: any) => g.name)).not.toContain('wardle.example.com');

    // Installed again, it serves what is stored.
    const again = await h.host.installGroup(dataPlugin(wardle));
    expect((await h.req('GET', FLUNDERS)).body.items.map((i: any) => i.metadata.name)).toEqual(['new', 'old']);
    again.uninstall();
    await h.server.stop();
  });

  it('replaces an installed group in one step: the new behaviour applies at once and open watches go on', async () => {
    const h = await startWithoutWardle();
    const first = await h.host.installGroup(dataPlugin(wardle));
    const list = await h.req('GET', FLUNDERS);
    const watch = await h.server.fetch(new Request(`http://kapi.test${FLUNDERS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`));
    const strict: GroupPlugin = { ...dataPlugin(wardle), strategies: {
      Flunder: { validate: (obj) => (String(obj.metadata?.name).startsWith('bad') ? [{ type: 'FieldValueInvalid', field: 'metadata.name', badValue: obj.metadata?.name, message: 'no' }] : []) },
    } };
    const second = await h.host.installGroup(strict, { replaces: first });
    expect((await h.req('POST', FLUNDERS, flunder('bad-one'))).status).toBe(422);
    expect((await h.req('POST', FLUNDERS, flunder('good'))).status).toBe(201);
    const [event] = await readLines(watch, 1);
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'good' } } });
    // The replaced group is gone for good: uninstalling it again changes nothing.
    first.uninstall();
    expect((await h.req('GET', FLUNDERS)).status).toBe(200);
    second.uninstall();
    expect((await h.req('GET', FLUNDERS)).status).toBe(404);
    await h.server.stop();
  });

  it('refuses a group whose resources are already served, serving none of it', async () => {
    const h = await startWithoutWardle();
    const first = await h.host.installGroup(dataPlugin(wardle));
    await expect(h.host.installGroup(dataPlugin(wardle))).rejects.toThrow(/installed twice/);
    expect((await h.req('GET', FLUNDERS)).status).toBe(200);
    first.uninstall();
    await h.server.stop();
  });

  it("counts a group's requests in the request metrics only while it is served", async () => {
    const h = await startWithoutWardle();
    /** apiserver_request_total of namespaced LISTs of flunders, by code. */
    const counted = async () => {
      const { values } = await h.server.metrics.registry.getSingleMetric('apiserver_request_total')!.get();
      const flunders = values.filter((v) => v.labels.resource === 'flunders' && v.labels.verb === 'LIST');
      return Object.fromEntries(flunders.map((v) => [v.labels.code, v.value]));
    };
    const installed = await h.host.installGroup(dataPlugin(wardle));
    expect((await h.req('GET', FLUNDERS)).status).toBe(200);
    expect(await counted()).toEqual({ 200: 1 });
    installed.uninstall();
    // No longer served: its 404s are not counted as flunders (a path anyone can make up adds no series).
    expect((await h.req('GET', FLUNDERS)).status).toBe(404);
    expect((await h.req('GET', FLUNDERS)).status).toBe(404);
    expect(await counted()).toEqual({ 200: 1 });
    const again = await h.host.installGroup(dataPlugin(wardle));
    expect((await h.req('GET', FLUNDERS)).status).toBe(200);
    expect(await counted()).toEqual({ 200: 2 });
    again.uninstall();
    await h.server.stop();
  });
});
