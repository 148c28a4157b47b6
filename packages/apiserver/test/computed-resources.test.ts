// A plugin's computed resource (PluginHost.addComputedResource): get and list answered from the plugin on every
// read, nothing stored, the rest of a read served by the server as for any resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin, group as core } from '@kapi/api-core';
import { createMessageCodec, decodeProtobufObject, type KubeObject } from '@kapi/apimachinery';
import { createMemoryBackend } from '@kapi/storage';
import { createApiServer, type ApiServer, type ComputedResource, type GroupPlugin } from '../src/index.js';

const CS = '/api/v1/componentstatuses';
const status = (name: string, healthy: boolean): KubeObject =>
  ({ metadata: { name }, conditions: [{ type: 'Healthy', status: healthy ? 'True' : 'False', message: healthy ? 'ok' : 'down' }] }) as unknown as KubeObject;

describe('a computed resource served through the plugin API', () => {
  let server: ApiServer;
  const reads: string[] = [];
  const source: ComputedResource = {
    async get(_ctx, name) {
      reads.push(`get ${name}`);
      return ['alpha', 'beta'].includes(name) ? status(name, name === 'alpha') : undefined;
    },
    async list() {
      reads.push('list');
      return [status('alpha', true), status('beta', false)];
    },
  };
  const req = async (method: string, path: string, accept = 'application/json', body?: unknown) => {
    const res = await server.fetch(
      new Request(`http://kapi.test${path}`, { method, headers: { accept, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const json = async (path: string, accept?: string) => {
    const res = await req('GET', path, accept);
    return { ...res, body: JSON.parse(Buffer.from(res.bytes).toString('utf8')) };
  };

  beforeAll(async () => {
    // The core group with its own componentstatuses replaced by a fixed source.
    const corePlugin: GroupPlugin = { ...createCorePlugin(), install: (host) => host.addComputedResource({ group: '', resource: 'componentstatuses' }, source) };
    server = createApiServer({ storage: createMemoryBackend(), plugins: [corePlugin] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('lists what the plugin computes, on every read, typed and without a resourceVersion', async () => {
    reads.length = 0;
    const first = await json(CS);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      kind: 'ComponentStatusList',
      apiVersion: 'v1',
      metadata: {},
      items: [
        { metadata: { name: 'alpha' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
        { metadata: { name: 'beta' }, conditions: [{ type: 'Healthy', status: 'False', message: 'down' }] },
      ],
    });
    await json(CS);
    expect(reads).toEqual(['list', 'list']);
    expect(first.headers.get('warning')).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
  });

  it('gets one by name, and answers 404 for a name the plugin does not know', async () => {
    const alpha = await json(`${CS}/alpha`);
    expect(alpha.status).toBe(200);
    expect(alpha.body).toEqual({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'alpha' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await json(`${CS}/gamma`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'componentstatuses "gamma" not found', details: { name: 'gamma', kind: 'componentstatuses' } });
  });

  it('applies label and field selectors to the computed list', async () => {
    expect((await json(`${CS}?fieldSelector=metadata.name%3Dbeta`)).body.items.map((i: KubeObject) => i.metadata?.name)).toEqual(['beta']);
    expect((await json(`${CS}?fieldSelector=metadata.name!%3Dbeta`)).body.items.map((i: KubeObject) => i.metadata?.name)).toEqual(['alpha']);
    expect((await json(`${CS}?labelSelector=tier%3Dcontrol-plane`)).body.items).toEqual([]);
    expect((await json(`${CS}?fieldSelector=status%3DTrue`)).status).toBe(400);
  });

  it('renders Tables with the kind printer, PartialObjectMetadata and Protobuf as negotiated', async () => {
    const table = await json(CS, 'application/json;as=Table;g=meta.k8s.io;v=v1');
    expect(table.body.kind).toBe('Table');
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([
      ['alpha', 'Healthy', 'ok', ''],
      ['beta', 'Unhealthy', 'down', ''],
    ]);
    const one = await json(`${CS}/beta`, 'application/json;as=Table;g=meta.k8s.io;v=v1');
    expect(one.body.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([['beta', 'Unhealthy', 'down', '']]);

    const meta = await json(CS, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
    expect(meta.body.kind).toBe('PartialObjectMetadataList');
    expect(meta.body.items.map((i: KubeObject) => i.metadata?.name)).toEqual(['alpha', 'beta']);

    const pb = await req('GET', CS, 'application/vnd.kubernetes.protobuf');
    expect(pb.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const list = decodeProtobufObject(createMessageCodec(core.protobuf), 'k8s.io.api.core.v1.ComponentStatusList', pb.bytes) as { items: KubeObject[] };
    expect(list.items.map((i) => [i.metadata?.name, (i as unknown as { conditions: { status: string }[] }).conditions[0].status])).toEqual([
      ['alpha', 'True'],
      ['beta', 'False'],
    ]);
  });

  it('refuses writes and watches with 405, as a resource served only for get and list', async () => {
    expect((await req('POST', CS, 'application/json', status('delta', true))).status).toBe(405);
    expect((await req('DELETE', `${CS}/alpha`)).status).toBe(405);
    expect((await req('GET', `${CS}?watch=1`)).status).toBe(405);
  });

  it('takes one source per resource', () => {
    const twice: GroupPlugin = {
      ...createCorePlugin(),
      install(host) {
        host.addComputedResource({ group: '', resource: 'componentstatuses' }, source);
        host.addComputedResource({ group: '', resource: 'componentstatuses' }, source);
      },
    };
    expect(() => createApiServer({ storage: createMemoryBackend(), plugins: [twice] })).toThrow('computed resource /componentstatuses is served twice');
  });
});
