import { describe, expect, it } from 'vitest';
import type { GroupDefinition } from '@kapi/apimachinery';
import { group as apps } from '@kapi/api-apps';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { group as wardle } from '@kapi/api-wardle';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, createDiscoveryRoutes, negotiateDiscovery } from './discovery-routes.js';

// What kubectl 1.30+ sends to /api and /apis.
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

const groups: GroupDefinition[] = [core, apps, policy, wardle];
const app = createDiscoveryRoutes(() => groups);
const get = (path: string, headers: Record<string, string> = {}) => app.request(`http://127.0.0.1:6443${path}`, { headers });
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

const NOT_FOUND = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  details: {},
  code: 404,
};

describe('negotiateDiscovery', () => {
  it('picks the aggregated document only for apidiscovery.k8s.io/v2', () => {
    expect(negotiateDiscovery(KUBECTL_ACCEPT)).toBe('aggregated');
    expect(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json')).toBe('legacy');
    expect(negotiateDiscovery('application/json, */*')).toBe('legacy');
    expect(negotiateDiscovery(undefined)).toBe('legacy');
    expect(negotiateDiscovery('')).toBe('legacy');
  });

  it('honours preference order and q values', () => {
    expect(negotiateDiscovery('application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toBe('legacy');
    expect(negotiateDiscovery('application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toBe('aggregated');
    expect(negotiateDiscovery('application/json; g=apidiscovery.k8s.io; v=v2; as=APIGroupDiscoveryList;q=0')).toBe('legacy');
  });
});

describe('discovery routes', () => {
  it('GET /api answers APIVersions as application/json by default', async () => {
    const res = await get('/api', { Accept: 'application/json, */*' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await json(res)).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
    });
  });

  it('GET /api answers the aggregated core group to kubectl', async () => {
    const res = await get('/api', { Accept: KUBECTL_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(AGGREGATED_DISCOVERY_CONTENT_TYPE);
    expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(res.headers.get('vary')).toBe('Accept');
    const body = await json(res);
    expect(body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {} });
    expect(body.items).toHaveLength(1);
    expect(body.items[0].versions[0].version).toBe('v1');
    expect(body.items[0].versions[0].resources.map((r: { resource: string }) => r.resource)).toContain('pods');
  });

  it('answers If-None-Match with 304 for an unchanged aggregated document', async () => {
    const first = await get('/apis', { Accept: KUBECTL_ACCEPT });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await get('/apis', { Accept: KUBECTL_ACCEPT, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('GET /apis answers APIGroupList or the aggregated named groups', async () => {
    const legacy = await get('/apis');
    expect(legacy.headers.get('content-type')).toBe('application/json');
    expect((await json(legacy)).groups.map((g: { name: string }) => g.name)).toEqual(['apps', 'policy', 'wardle.example.com']);
    const aggregated = await json(get('/apis', { Accept: KUBECTL_ACCEPT }));
    expect(aggregated.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(['apps', 'policy', 'wardle.example.com']);
  });

  it('GET /api/v1 and /apis/GROUP/VERSION answer APIResourceLists', async () => {
    const v1 = await get('/api/v1', { Accept: KUBECTL_ACCEPT });
    expect(v1.headers.get('content-type')).toBe('application/json');
    const coreList = await json(v1);
    expect(coreList.groupVersion).toBe('v1');
    expect(coreList.resources.find((r: { name: string }) => r.name === 'pods/status')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    const appsList = await json(get('/apis/apps/v1'));
    expect(appsList.resources.find((r: { name: string }) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    const group = await json(get('/apis/wardle.example.com'));
    expect(group).toMatchObject({ kind: 'APIGroup', name: 'wardle.example.com', preferredVersion: { version: 'v1beta1' } });
  });

  it('answers 404 with kube Status for unknown groups and versions', async () => {
    for (const path of ['/apis/nope.example.com', '/apis/nope.example.com/v1', '/apis/apps/v2', '/api/v2', '/apis/autoscaling']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await json(res)).toEqual(NOT_FOUND);
    }
  });

  it('serves each path with a trailing slash too', async () => {
    expect((await json(get('/api/'))).kind).toBe('APIVersions');
    expect((await json(get('/apis/'))).kind).toBe('APIGroupList');
    expect((await json(get('/api/v1/'))).groupVersion).toBe('v1');
    expect((await json(get('/apis/apps/'))).name).toBe('apps');
    expect((await json(get('/apis/apps/v1/'))).groupVersion).toBe('apps/v1');
    expect((await get('/apis/nope/')).status).toBe(404);
  });

  it('serves only GET', async () => {
    const res = await app.request('http://127.0.0.1:6443/apis', { method: 'POST' });
    expect(res.status).toBe(404);
  });

  it('reads the groups on every request', async () => {
    let current: GroupDefinition[] = [core];
    const dynamic = createDiscoveryRoutes(() => current);
    expect((await dynamic.request('/apis/apps')).status).toBe(404);
    current = [core, apps];
    expect((await dynamic.request('/apis/apps')).status).toBe(200);
    current.push(wardle);
    expect((await dynamic.request('/apis/wardle.example.com')).status).toBe(200);
  });
});
