import { describe, expect, it } from 'vitest';
import type { GroupDefinition } from '@kapi/apimachinery';
import { group as apps } from '@kapi/api-apps';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as core } from '@kapi/api-core';
import { group as wardle } from '@kapi/api-wardle';
import { createOpenAPIRoutes } from './openapi-routes.js';

const GROUPS: GroupDefinition[] = [core, apps, autoscaling, wardle];
const app = createOpenAPIRoutes(() => GROUPS);
const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
const body = async (res: Response): Promise<any> => res.json();

const NOT_FOUND = {
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
};

describe('OpenAPI routes', () => {
  it('serves the /openapi/v3 index with hashed URLs of every group-version', async () => {
    const res = await get('/openapi/v3');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    const { paths } = await body(res);
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'apis/wardle.example.com/v1alpha1']));
    expect(paths['apis/apps/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
  });

  it('follows serverRelativeURL to an immutable, hash-checked document, as kubectl does', async () => {
    const { paths } = await body(await get('/openapi/v3'));
    const url: string = paths['apis/apps/v1'].serverRelativeURL;
    const res = await get(url, { Accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, immutable');
    expect(res.headers.get('Expires')).toBeTruthy();
    const hash = url.slice(url.indexOf('hash=') + 5);
    expect(res.headers.get('ETag')).toBe(`"${hash}"`);
    const doc = await body(res);
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']).toBeDefined();

    const plain = await get('/openapi/v3/apis/apps/v1');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Cache-Control')).toBeNull();
    expect(await plain.text()).toBe(JSON.stringify(doc));

    const stale = await get('/openapi/v3/apis/apps/v1?hash=0123');
    expect(stale.status).toBe(301);
    expect(stale.headers.get('Location')).toBe(url);

    const cached = await get('/openapi/v3/apis/apps/v1', { 'If-None-Match': `"${hash}"` });
    expect(cached.status).toBe(304);
  });

  it('serves the core group and wardle', async () => {
    expect((await get('/openapi/v3/api/v1')).status).toBe(200);
    const wardleDoc = await body(await get('/openapi/v3/apis/wardle.example.com/v1alpha1'));
    expect(wardleDoc.components.schemas['com.example.wardle.v1alpha1.Flunder']).toBeDefined();
  });

  it('answers unknown documents with a NotFound Status', async () => {
    for (const path of ['/openapi/v3/apis/nope/v1', '/openapi/v3/apis/apps/v2', '/openapi/v3/api/v1/pods']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await body(res)).toEqual(NOT_FOUND);
    }
  });

  it('answers media types it cannot produce with a NotAcceptable Status', async () => {
    const res = await get('/openapi/v3/apis/apps/v1', { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
    expect(res.status).toBe(406);
    expect(await body(res)).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });

  it('serves /openapi/v2 as JSON, and as Protobuf when kubectl asks for it', async () => {
    const json = await get('/openapi/v2', { Accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.headers.get('Content-Type')).toBe('application/json');
    const swagger = await body(json);
    expect(swagger.swagger).toBe('2.0');
    expect(swagger.definitions['io.k8s.api.apps.v1.Deployment']).toBeDefined();
    expect(swagger.paths['/api/v1/namespaces/{namespace}/pods']).toBeDefined();

    const pb = await get('/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(pb.status).toBe(200);
    // The Content-Type is the `.v1.0` spelling kube answers with: client-go cannot parse the `@` one.
    expect(pb.headers.get('Content-Type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const bytes = new Uint8Array(await pb.arrayBuffer());
    // Field 1 (swagger, length-delimited) = "2.0".
    expect([...bytes.slice(0, 5)]).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    expect(pb.headers.get('ETag')).toMatch(/^"[0-9A-F]{128}"$/);
    expect(pb.headers.get('ETag')).not.toBe(json.headers.get('ETag'));

    expect((await get('/openapi/v2')).headers.get('Content-Type')).toBe('application/json');
    expect((await get('/openapi/v2', { Accept: 'text/html' })).status).toBe(406);
  });
});
