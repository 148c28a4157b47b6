// componentstatuses as kube-apiserver computes them, through a server: a healthy stand-in scheduler (HTTPS with a
// self-signed certificate), a controller-manager that is not running, and the storage backend's own check.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { createCorePlugin, DEFAULT_COMPONENT_PROBES, STORAGE_COMPONENT } from '../src/index.js';
import { closedPort, selfSignedCert } from '../src/registry/component-status/test-servers.js';

const CS = '/api/v1/componentstatuses';
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';

describe('componentstatuses', () => {
  let server: ApiServer;
  let scheduler: Server;
  let schedulerUrl = '';
  let managerUrl = '';
  let storageDown = false;
  const req = async (path: string, accept = 'application/json') => {
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { headers: { accept } }));
    return { status: res.status, warning: res.headers.get('warning'), body: JSON.parse(await res.text()) };
  };
  const rows = async (path = CS) => (await req(path, TABLE)).body.rows.map((r: { cells: unknown[] }) => r.cells);

  beforeAll(async () => {
    scheduler = createServer(selfSignedCert(), (request, res) => res.end(request.url === '/healthz' ? 'ok' : 'unexpected'));
    await new Promise<void>((resolve) => scheduler.listen(0, '127.0.0.1', resolve));
    schedulerUrl = `https://127.0.0.1:${(scheduler.address() as AddressInfo).port}/healthz`;
    managerUrl = `https://127.0.0.1:${await closedPort()}/healthz`;
    // The backend's health read fails while `storageDown` is set: what /readyz's etcd check and etcd-0 both read.
    const memory = createMemoryBackend();
    const storage = new Proxy(memory, {
      get(target, prop, receiver) {
        if (prop !== 'get') return Reflect.get(target, prop, receiver);
        return (key: string, ...rest: unknown[]) => {
          if (storageDown && key === '/registry/health') return Promise.reject(new Error('etcdserver: request timed out'));
          return (target.get as (...args: unknown[]) => unknown).call(target, key, ...rest);
        };
      },
    }) as StorageBackend;
    const components = [
      { name: 'scheduler', url: schedulerUrl },
      { name: 'controller-manager', url: managerUrl },
    ];
    server = createApiServer({ storage, plugins: [createCorePlugin({ componentStatus: { components } })] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
    scheduler.closeAllConnections();
    scheduler.close();
  });

  it("probes kube-apiserver's components by default, and names the storage backend etcd-0", () => {
    expect(DEFAULT_COMPONENT_PROBES).toEqual([
      { name: 'scheduler', url: 'https://127.0.0.1:10259/healthz' },
      { name: 'controller-manager', url: 'https://127.0.0.1:10257/healthz' },
    ]);
    expect(STORAGE_COMPONENT).toBe('etcd-0');
  });

  it('lists every component checked now, with its Healthy condition', async () => {
    const list = await req(CS);
    expect(list.status).toBe(200);
    expect(list.warning).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(list.body).toEqual({
      kind: 'ComponentStatusList',
      apiVersion: 'v1',
      metadata: {},
      items: [
        { metadata: { name: 'scheduler' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
        {
          metadata: { name: 'controller-manager' },
          conditions: [{ type: 'Healthy', status: 'False', message: `Get "${managerUrl}": dial tcp ${new URL(managerUrl).host}: connect: connection refused` }],
        },
        { metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
      ],
    });
  });

  it('prints the rows kubectl get componentstatuses shows', async () => {
    const table = await req(CS, TABLE);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(await rows()).toEqual([
      ['scheduler', 'Healthy', 'ok', ''],
      ['controller-manager', 'Unhealthy', `Get "${managerUrl}": dial tcp ${new URL(managerUrl).host}: connect: connection refused`, ''],
      ['etcd-0', 'Healthy', 'ok', ''],
    ]);
  });

  it('gets one component, checked alone; another name is kube\'s 500 Component not found', async () => {
    const one = await req(`${CS}/scheduler`);
    expect(one.body).toEqual({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'scheduler' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await req(`${CS}/kubelet`);
    expect(missing.status).toBe(500);
    expect(missing.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: kubelet', code: 500 });
  });

  it('filters by field and label selectors (ComponentStatuses have no labels)', async () => {
    expect(await rows(`${CS}?fieldSelector=metadata.name%3Detcd-0`)).toEqual([['etcd-0', 'Healthy', 'ok', '']]);
    expect((await req(`${CS}?labelSelector=component`)).body.items).toEqual([]);
  });

  it("reports the storage backend unhealthy with its check's error, as /readyz's etcd check fails", async () => {
    storageDown = true;
    try {
      expect((await req(`${CS}/etcd-0`)).body.conditions).toEqual([{ type: 'Healthy', status: 'False', error: 'etcdserver: request timed out' }]);
      expect(await rows(`${CS}?fieldSelector=metadata.name%3Detcd-0`)).toEqual([['etcd-0', 'Unhealthy', '', 'etcdserver: request timed out']]);
      expect((await server.fetch(new Request('http://kapi.test/readyz/etcd'))).status).toBe(500);
    } finally {
      storageDown = false;
    }
    expect((await req(`${CS}/etcd-0`)).body.conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
  });
});
