import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWithoutEtcd, startEtcd } from '@kapi/storage-etcd/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlags, type ServerConfig } from '../src/flags.js';
import { ensureSelfSignedCertificates } from '@kapi/serve';

// Loaded lazily: the server composition needs @kapi/apiserver (and every group) built.
const { createKapiApiServer } = await import('../src/apiserver.js');

const root = mkdtempSync(join(tmpdir(), 'kapi-server-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Storage is what these tests are about: requests come without credentials, so they ask for AlwaysAllow. */
function configFor(...argv: string[]): ServerConfig {
  const parsed = parseFlags(['--authorization-mode=AlwaysAllow', ...argv], root);
  if (parsed.help) throw new Error('unexpected --help');
  return parsed.config;
}

const quiet = () => {};
const base = 'http://kapi.test/api/v1/namespaces/default/configmaps';

async function call(server: { fetch(r: Request): Response | Promise<Response> }, method: string, url: string, body?: unknown) {
  const res = await server.fetch(
    new Request(url, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('kapi-server storage', () => {
  it('keeps objects and resource versions in <data-dir>/kapi.db across restarts by default', async () => {
    const config = configFor('--data-dir', 'sqlite-default');
    expect(config.storageBackend).toBe('sqlite');
    const first = await createKapiApiServer(config, quiet);
    await first.start();
    const created = await call(first, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    expect(created.status).toBe(201);
    await first.stop();

    const second = await createKapiApiServer(config, quiet);
    await second.start();
    const got = await call(second, 'GET', `${base}/a`);
    expect(got.body.metadata).toMatchObject({ resourceVersion: created.body.metadata.resourceVersion, uid: created.body.metadata.uid });
    const updated = await call(second, 'PUT', `${base}/a`, { ...got.body, data: { k: 'w' } });
    expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.body.metadata.resourceVersion));
    await second.stop();
  });

  it('forgets history older than --etcd-compaction-interval: old resource versions get 410 Gone', async () => {
    const server = await createKapiApiServer(configFor('--data-dir', 'compaction', '--etcd-compaction-interval=100ms'), quiet);
    await server.start();
    const created = await call(server, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { n: '0' } });
    const rv = created.body.metadata.resourceVersion as string;
    expect((await call(server, 'GET', `${base}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status).toBe(200);
    let current = created.body;
    let status = 200;
    // Every tick compacts to the revision of the tick before: keep writing until the first version is gone.
    for (let i = 0; i < 200 && status === 200; i++) {
      current = (await call(server, 'PUT', `${base}/c`, { ...current, data: { n: String(i + 1) } })).body;
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await call(server, 'GET', `${base}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status;
    }
    expect(status).toBe(410);
    await server.stop();
  }, 30_000);

  it('--storage-backend=memory keeps nothing across restarts', async () => {
    const config = configFor('--storage-backend=memory', '--data-dir', 'memory');
    const first = await createKapiApiServer(config, quiet);
    await first.start();
    expect((await call(first, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' } })).status).toBe(201);
    await first.stop();
    const second = await createKapiApiServer(config, quiet);
    await second.start();
    expect((await call(second, 'GET', `${base}/m`)).status).toBe(404);
    await second.stop();
  });
});

describe.skipIf(skipWithoutEtcd())('kapi-server on etcd', () => {
  it('--storage-backend=etcd3 over TLS: --etcd-servers=https://..., --etcd-cafile verifies etcd', async () => {
    // etcd serves with a certificate from a CA of our own (the one kapi-server would generate for itself).
    const pki = await ensureSelfSignedCertificates({ dataDir: join(root, 'etcd-pki'), bindAddress: '127.0.0.1' });
    const etcd = await startEtcd({ tls: { certFile: pki.files.cert, keyFile: pki.files.key } });
    try {
      expect(etcd.endpoint).toMatch(/^https:/);
      const argv = ['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`, '--etcd-prefix=/kapi-tls', '--data-dir', 'etcd-tls'];
      const server = await createKapiApiServer(configFor(...argv, `--etcd-cafile=${pki.files.ca}`), quiet);
      await server.start();
      const created = await call(server, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tls' }, data: { k: 'v' } });
      expect(created.status).toBe(201);
      await server.stop();

      // The same etcd, another server: the object is there. Without the CA, etcd's certificate is refused: 5xx.
      const again = await createKapiApiServer(configFor(...argv, `--etcd-cafile=${pki.files.ca}`), quiet);
      await again.start();
      expect((await call(again, 'GET', `${base}/tls`)).body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
      await again.stop();
      const untrusting = await createKapiApiServer(configFor(...argv), quiet);
      const refused = await call(untrusting, 'GET', `${base}/tls`);
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(refused.body.kind).toBe('Status');
      await untrusting.stop();
    } finally {
      await etcd.destroy();
    }
  }, 60_000);
});
