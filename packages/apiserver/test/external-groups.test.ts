// A plugin that serves requests in the server's place and adds other servers' group versions to discovery and
// OpenAPI (PluginHost.routeRequests, setDiscoverySource, setOpenAPISource): what an aggregator builds on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createMemoryBackend } from '@kapi/storage';
import { newServiceUnavailable } from '@kapi/apimachinery';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, createApiServer, type ApiServer, type ExternalDiscovery, type ExternalOpenAPI, type GroupPlugin } from '../src/index.js';

describe('external group versions through the plugin API', () => {
  let server: ApiServer;
  const seen: { path: string; user: string }[] = [];
  let discovery: ExternalDiscovery = {
    versions: [
      { group: 'remote.example.com', version: 'v1', resources: [{ resource: 'widgets', responseKind: { group: 'remote.example.com', version: 'v1', kind: 'Widget' }, scope: 'Namespaced', singularResource: 'widget', verbs: ['get', 'list'] }] },
      { group: 'pending.example.com', version: 'v1' },
    ],
    priorities: new Map([
      ['remote.example.com/v1', { groupPriorityMinimum: 30000, versionPriority: 10 }],
      ['pending.example.com/v1', { groupPriorityMinimum: 1, versionPriority: 1 }],
    ]),
  };
  const openapi: ExternalOpenAPI = {
    v3: new Map([['apis/remote.example.com/v1', { openapi: '3.0.0', paths: { '/apis/remote.example.com/v1/widgets': {} } }]]),
    v2: [{ swagger: '2.0', paths: { '/apis/remote.example.com/v1/widgets': { get: {} }, '/api/v1/pods': { get: { hijacked: true } } }, definitions: { 'com.example.Widget': { type: 'object' } } }],
  };
  const req = async (path: string, headers: Record<string, string> = {}) => {
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { headers }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    const plugin: GroupPlugin = {
      ...createCorePlugin(),
      install(host) {
        createCorePlugin().install?.(host);
        host.routeRequests((path) =>
          path.startsWith('/apis/remote.example.com/') ? (request, user) => {
            seen.push({ path: new URL(request.url).pathname, user: user.username });
            return Response.json({ kind: 'WidgetList', items: [] });
          } : path.startsWith('/apis/pending.example.com/') ? () => {
            throw newServiceUnavailable('service unavailable');
          } : undefined,
        );
        host.setDiscoverySource({ current: () => discovery });
        host.setOpenAPISource({ current: () => openapi });
        expect(() => host.setDiscoverySource({ current: () => discovery })).toThrow(/already set/);
      },
    };
    server = createApiServer({ storage: createMemoryBackend(), plugins: [plugin] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("routes a router's paths to its handler, as the authenticated user, and renders what it throws as a Status", async () => {
    expect((await req('/apis/remote.example.com/v1/widgets')).body).toEqual({ kind: 'WidgetList', items: [] });
    expect(seen).toEqual([{ path: '/apis/remote.example.com/v1/widgets', user: 'system:anonymous' }]);
    const unavailable = await req('/apis/pending.example.com/v1/things');
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', message: 'service unavailable' });
    // other paths are the server's own
    expect((await req('/api/v1/namespaces/default')).body.metadata.name).toBe('default');
  });

  it('lists external group versions in discovery by their priorities, and leaves versions with unknown resources out of the aggregated form', async () => {
    const legacy = await req('/apis');
    expect(legacy.body.groups.map((g: { name: string }) => g.name)).toEqual(['remote.example.com', 'pending.example.com']);
    const aggregated = await req('/apis', { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE });
    expect(aggregated.body.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(['remote.example.com']);
    expect(aggregated.body.items[0].versions[0]).toMatchObject({ version: 'v1', freshness: 'Current', resources: [{ resource: 'widgets' }] });
    expect((await req('/apis/pending.example.com')).body).toMatchObject({ kind: 'APIGroup', preferredVersion: { version: 'v1' } });
    // a new source state is picked up (documents are rebuilt when the object changes)
    discovery = { ...discovery, versions: [{ ...discovery.versions[0], freshness: 'Stale' }] };
    const stale = await req('/apis', { accept: AGGREGATED_DISCOVERY_CONTENT_TYPE });
    expect(stale.body.items[0].versions[0].freshness).toBe('Stale');
  });

  it('serves external OpenAPI v3 documents and merges v2, the server keeping its own paths', async () => {
    const index = await req('/openapi/v3');
    const url = index.body.paths['apis/remote.example.com/v1'].serverRelativeURL as string;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/remote\.example\.com\/v1\?hash=[0-9A-F]+$/);
    expect((await req(url)).body.paths).toHaveProperty(['/apis/remote.example.com/v1/widgets']);
    const v2 = await req('/openapi/v2');
    expect(v2.body.paths['/apis/remote.example.com/v1/widgets']).toEqual({ get: {} });
    expect(v2.body.definitions['com.example.Widget']).toEqual({ type: 'object' });
    expect(v2.body.paths['/api/v1/pods'].get.hijacked).toBeUndefined();
  });
});
