import { describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { createSqliteBackend } from '@kapi/storage-sqlite';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataPlugins } from '../src/groups.js';

const others = (await loadDataPlugins()).filter((p) => p.definition.group !== '');

/** Every group, the core one with the given service ranges, on `storage`. */
async function start(storage: StorageBackend, ranges: { clusterIPRange?: string; nodePortRange?: string } = {}): Promise<ApiServer> {
  const server = createApiServer({ storage, plugins: [createCorePlugin(ranges), ...others] });
  await server.start();
  return server;
}

async function req(server: ApiServer, method: string, path: string, body?: unknown) {
  const res = await server.fetch(
    new Request(`http://kapi.test${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

const SERVICES = '/api/v1/namespaces/default/services';
const service = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

describe('Service cluster IPs and node ports', { timeout: 30_000 }, () => {
  it('hands out every address of the range once under concurrent creates, then answers kube\'s 422 "range is full"', async () => {
    const server = await start(createMemoryBackend(), { clusterIPRange: '10.1.0.0/28' });
    try {
      const kubernetes = await req(server, 'GET', `${SERVICES}/kubernetes`);
      expect(kubernetes.body.spec).toMatchObject({ clusterIP: '10.1.0.1', clusterIPs: ['10.1.0.1'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
      // 14 usable addresses, one of them the kubernetes Service's.
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => req(server, 'POST', SERVICES, service(`s${i}`))));
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(13);
      const ips = created.map((r) => r.body.spec.clusterIP as string);
      expect(new Set(ips).size).toBe(13);
      for (const ip of ips) expect(ip).toMatch(/^10\.1\.0\.([2-9]|1[0-4])$/);
      for (const failed of results.filter((r) => r.status !== 201)) {
        expect(failed.status).toBe(422);
        expect(failed.body.message).toMatch(/^Service "s\d+" is invalid: spec\.clusterIPs: Invalid value: \[\]string\{\}: failed to allocate a serviceIP: range is full$/);
      }
      // Each address is an IPAddress whose parent is its Service.
      const addresses = await req(server, 'GET', '/apis/networking.k8s.io/v1/ipaddresses');
      expect(addresses.body.items.map((a: any) => a.metadata.name).sort()).toEqual(['10.1.0.1', ...ips].sort());
      const one = addresses.body.items.find((a: any) => a.metadata.name === ips[0]);
      // group is the core group's "", which Go leaves out (omitempty).
      expect(one.spec.parentRef).toEqual({ resource: 'services', namespace: 'default', name: created[0].body.metadata.name });
    } finally {
      await server.stop();
    }
  });

  it('frees a node port as soon as an update stops using it: another Service may take it at once', async () => {
    const server = await start(createMemoryBackend());
    try {
      const web = await req(server, 'POST', SERVICES, service('web', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(web.status).toBe(201);
      const taken = await req(server, 'POST', SERVICES, service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(taken.status).toBe(422);
      // Back to ClusterIP: the node port is given back (kube releases it when the update commits).
      const back = await req(server, 'PUT', `${SERVICES}/web`, { ...web.body, spec: { ...web.body.spec, type: 'ClusterIP', ports: [{ port: 80 }], externalTrafficPolicy: undefined } });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body.spec.ports[0].nodePort).toBeUndefined();
      const other = await req(server, 'POST', SERVICES, service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(other.status, JSON.stringify(other.body)).toBe(201);
      // And a node port an update changes is free for others at once too.
      const moved = await req(server, 'PUT', `${SERVICES}/other`, { ...other.body, spec: { ...other.body.spec, ports: [{ port: 80, nodePort: 30081 }] } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const third = await req(server, 'POST', SERVICES, service('third', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(third.status, JSON.stringify(third.body)).toBe(201);
    } finally {
      await server.stop();
    }
  });

  it('keeps allocations across a restart: a taken address or port is refused, an update without them keeps them', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kapi-services-')), 'kapi.db');
    let server = await start(createSqliteBackend({ path }));
    const web = await req(server, 'POST', SERVICES, service('web', { type: 'NodePort' }));
    expect(web.status).toBe(201);
    const { clusterIP, ports } = web.body.spec;
    expect(ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    await server.stop();

    server = await start(createSqliteBackend({ path }));
    try {
      const sameIP = await req(server, 'POST', SERVICES, service('other', { clusterIP }));
      expect(sameIP.status).toBe(422);
      expect(sameIP.body.message).toBe(
        `Service "other" is invalid: spec.clusterIPs: Invalid value: []string{"${clusterIP}"}: failed to allocate IP ${clusterIP}: provided IP is already allocated`,
      );
      const samePort = await req(server, 'POST', SERVICES, service('np', { type: 'NodePort', ports: [{ port: 80, nodePort: ports[0].nodePort }] }));
      expect(samePort.status).toBe(422);
      expect(samePort.body.message).toBe(`Service "np" is invalid: spec.ports[0].nodePort: Invalid value: ${ports[0].nodePort}: provided port is already allocated`);

      // A PUT of the manifest as first written (no clusterIP, no nodePort) keeps both (kube's patchAllocatedValues).
      const current = await req(server, 'GET', `${SERVICES}/web`);
      const replaced = await req(server, 'PUT', `${SERVICES}/web`, {
        metadata: { name: 'web', resourceVersion: current.body.metadata.resourceVersion },
        spec: { type: 'NodePort', ports: [{ port: 80 }] },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.spec.clusterIP).toBe(clusterIP);
      expect(replaced.body.spec.ports[0].nodePort).toBe(ports[0].nodePort);

      const moved = await req(server, 'PUT', `${SERVICES}/web`, { ...replaced.body, spec: { ...replaced.body.spec, clusterIP: '10.0.0.250', clusterIPs: ['10.0.0.250'] } });
      expect(moved.status).toBe(422);
      expect(moved.body.message).toBe('Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.250"}: may not change once set');
    } finally {
      await server.stop();
    }
  });

  it('the repair loop gives back the address of a deleted Service and records again one deleted by hand', async () => {
    const server = await start(createMemoryBackend());
    const IPS = '/apis/networking.k8s.io/v1/ipaddresses';
    const until = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await what()); i++) await new Promise((r) => setTimeout(r, 50));
      return what();
    };
    try {
      const gone = (await req(server, 'POST', SERVICES, service('gone'))).body.spec.clusterIP;
      const kept = (await req(server, 'POST', SERVICES, service('kept'))).body.spec.clusterIP;
      // An address younger than the grace period may belong to a create under way: it is left alone.
      await new Promise((r) => setTimeout(r, 5_200));
      await req(server, 'DELETE', `${SERVICES}/gone`);
      expect(await until(async () => (await req(server, 'GET', `${IPS}/${gone}`)).status === 404)).toBe(true);

      expect((await req(server, 'DELETE', `${IPS}/${kept}`)).status).toBe(200);
      await req(server, 'POST', SERVICES, service('trigger'));
      expect(await until(async () => (await req(server, 'GET', `${IPS}/${kept}`)).status === 200)).toBe(true);
      const taken = await req(server, 'POST', SERVICES, service('thief', { clusterIP: kept }));
      expect(taken.status).toBe(422);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('gives node ports from the range once each, refuses ports outside it; headless and ExternalName Services get no address', async () => {
    const server = await start(createMemoryBackend(), { nodePortRange: '30100-30104' });
    try {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => req(server, 'POST', SERVICES, service(`np${i}`, { type: 'NodePort' }))));
      const ports = results.filter((r) => r.status === 201).map((r) => r.body.spec.ports[0].nodePort as number);
      expect(ports.sort()).toEqual([30100, 30101, 30102, 30103, 30104]);
      // A full range is kube's 500 (alloc.go: "not a field-level validation failure").
      const refused = results.filter((r) => r.status !== 201);
      expect(refused.map((r) => [r.status, r.body.message])).toEqual(Array(3).fill([500, 'Internal error occurred: failed to allocate a nodePort: range is full']));
      const outside = await req(server, 'POST', SERVICES, service('far', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }));
      expect(outside.body.message).toBe(
        'Service "far" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is not in the valid range. The range of valid ports is 30100-30104',
      );

      const headless = await req(server, 'POST', SERVICES, service('headless', { clusterIP: 'None' }));
      expect(headless.body.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] });
      const external = await req(server, 'POST', SERVICES, { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } });
      expect(external.status).toBe(201);
      expect(external.body.spec.clusterIP).toBeUndefined();

      // A dry run shows an address but keeps none.
      const before = (await req(server, 'GET', '/apis/networking.k8s.io/v1/ipaddresses')).body.items.length;
      const dry = await req(server, 'POST', `${SERVICES}?dryRun=All`, service('dry'));
      expect(dry.body.spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
      expect((await req(server, 'GET', '/apis/networking.k8s.io/v1/ipaddresses')).body.items.length).toBe(before);
    } finally {
      await server.stop();
    }
  });

  it('coordinates node ports between servers sharing storage: one bitmap, taken by compare-and-swap', async () => {
    const storage = createMemoryBackend();
    const [a, b] = await Promise.all([start(storage, { nodePortRange: '30100-30104' }), start(storage, { nodePortRange: '30100-30104' })]);
    try {
      // Eight creates through two servers at once: five ports, each handed out once.
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => req(i % 2 ? a : b, 'POST', SERVICES, service(`np${i}`, { type: 'NodePort' }))),
      );
      const ports = results.filter((r) => r.status === 201).map((r) => r.body.spec.ports[0].nodePort as number);
      expect(ports.sort()).toEqual([30100, 30101, 30102, 30103, 30104]);
      // The same port asked through both at once: one gets it.
      await Promise.all(results.filter((r) => r.status === 201).map((r) => req(a, 'DELETE', `${SERVICES}/${r.body.metadata.name}`)));
      const asked = await Promise.all([a, b, a, b].map((server, i) => req(server, 'POST', SERVICES, service(`same${i}`, { type: 'NodePort', ports: [{ port: 80, nodePort: 30102 }] }))));
      expect(asked.map((r) => r.status).sort()).toEqual([201, 422, 422, 422]);
      // The record is kube's RangeAllocation at /registry/ranges/servicenodeports: bit 2 of the range is 30102.
      const { kv } = await storage.get('/registry/ranges/servicenodeports');
      const stored = JSON.parse(new TextDecoder().decode(kv!.value));
      expect(stored).toEqual({ kind: 'RangeAllocation', apiVersion: 'v1', metadata: { creationTimestamp: null }, range: '30100-30104', data: Buffer.from([0b100]).toString('base64') });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('shares a node port between ports of one number, frees them on delete at once, and answers a dry run as kube does', async () => {
    const server = await start(createMemoryBackend());
    try {
      const dns = await req(server, 'POST', SERVICES, service('dns', { type: 'NodePort', ports: [{ name: 'udp', port: 53, protocol: 'UDP' }, { name: 'tcp', port: 53, protocol: 'TCP' }, { name: 'web', port: 80, nodePort: 30080 }] }));
      expect(dns.status, JSON.stringify(dns.body)).toBe(201);
      const [udp, tcp, web] = dns.body.spec.ports.map((p: any) => p.nodePort);
      expect(udp).toBe(tcp);
      expect(web).toBe(30080);
      expect((await req(server, 'POST', SERVICES, service('thief', { type: 'NodePort', ports: [{ port: 80, nodePort: udp }] }))).status).toBe(422);
      expect((await req(server, 'DELETE', `${SERVICES}/dns`)).status).toBe(200);
      const again = await req(server, 'POST', SERVICES, service('again', { type: 'NodePort', ports: [{ name: 'a', port: 53, nodePort: udp }, { name: 'b', port: 80, nodePort: 30080 }] }));
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      // A Service held back by a finalizer keeps its port until the last finalizer goes (kube's AfterDelete then).
      const held = { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30070 }] } };
      expect((await req(server, 'POST', SERVICES, held)).status).toBe(201);
      expect((await req(server, 'DELETE', `${SERVICES}/held`)).body.metadata.deletionTimestamp).toBeTruthy();
      expect((await req(server, 'POST', SERVICES, service('next', { type: 'NodePort', ports: [{ port: 80, nodePort: 30070 }] }))).status).toBe(422);
      const released = await server.fetch(
        new Request(`http://kapi.test${SERVICES}/held`, { method: 'PATCH', body: '{"metadata":{"finalizers":null}}', headers: { 'content-type': 'application/merge-patch+json' } }),
      );
      expect(released.status).toBe(200);
      expect((await req(server, 'POST', SERVICES, service('next', { type: 'NodePort', ports: [{ port: 80, nodePort: 30070 }] }))).status).toBe(201);
      // kube's dry-run port operation hands out stand-ins counted up from 32769, and takes nothing.
      const dry = await req(server, 'POST', `${SERVICES}?dryRun=All`, service('dry', { type: 'NodePort', ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }] }));
      expect(dry.body.spec.ports.map((p: any) => p.nodePort)).toEqual([32769, 32770]);
      const dryTaken = await req(server, 'POST', `${SERVICES}?dryRun=All`, service('dry', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(dryTaken.body.message).toBe('Service "dry" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    } finally {
      await server.stop();
    }
  });

  it('records again the node ports of stored Services when the record is lost, and frees a port nobody holds after three repairs', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kapi-node-ports-')), 'kapi.db');
    let server = await start(createSqliteBackend({ path }));
    const web = await req(server, 'POST', SERVICES, service('web', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(web.status).toBe(201);
    await server.stop();
    // The record as a store from before node ports were recorded would have it (none), then as a create that took
    // 30090 (bit 90) and never stored its Service left it: without 30080.
    const raw = createSqliteBackend({ path });
    await raw.delete('/registry/ranges/servicenodeports');
    const leaked = new Uint8Array(12);
    leaked[12 - 1 - (90 >> 3)] = 1 << (90 & 7);
    const value = { kind: 'RangeAllocation', apiVersion: 'v1', metadata: { creationTimestamp: null }, range: '30000-32767', data: Buffer.from(leaked).toString('base64') };
    await raw.create('/registry/ranges/servicenodeports', new TextEncoder().encode(JSON.stringify(value)));
    await raw.close();
    server = createApiServer({ storage: createSqliteBackend({ path }), plugins: [createCorePlugin({ repairIntervalMs: 500 }), ...others] });
    await server.start();
    try {
      const taken = await req(server, 'POST', SERVICES, service('thief', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
      expect(taken.status).toBe(422);
      // The leaked port stays taken for three repairs (one at start, then one per interval), then it is free.
      const early = await req(server, 'POST', SERVICES, service('early', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }));
      expect(early.body.message).toBe('Service "early" is invalid: spec.ports[0].nodePort: Invalid value: 30090: provided port is already allocated');
      let freed = 0;
      for (let i = 0; i < 200 && freed !== 201; i++) {
        await new Promise((r) => setTimeout(r, 50));
        freed = (await req(server, 'POST', SERVICES, service('late', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] }))).status;
      }
      expect(freed).toBe(201);
    } finally {
      await server.stop();
    }
  });
});
