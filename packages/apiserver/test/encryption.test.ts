// Encryption at rest (--encryption-provider-config): what storage keeps, what clients read, rotation, and values
// no configured key reads.
import { randomBytes } from 'node:crypto';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { describe, expect, it } from 'vitest';
import { loadEncryptionConfig } from '../src/index.js';
import { configMap, openWatch, startHarness } from './harness.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const CMS = '/api/v1/namespaces/default/configmaps';
const key = () => randomBytes(32).toString('base64');
const config = (providers: string, resources = 'secrets') =>
  loadEncryptionConfig(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [${resources}]
    providers: ${providers}
`);
const aescbc = (...keys: [string, string][]) => `{aescbc: {keys: [${keys.map(([n, s]) => `{name: ${n}, secret: '${s}'}`).join(', ')}]}}`;
const secret = (name: string, value = 'hunter2') => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { password: value } });
const raw = async (storage: StorageBackend, k: string) => Buffer.from((await storage.get(k)).kv!.value).toString('latin1');

describe('encryption at rest', () => {
  for (const [provider, body] of [
    ['aescbc', aescbc(['key1', key()])],
    ['aesgcm', `{aesgcm: {keys: [{name: key1, secret: '${randomBytes(16).toString('base64')}'}]}}`],
    ['secretbox', `{secretbox: {keys: [{name: key1, secret: '${key()}'}]}}`],
  ]) {
    it(`${provider}: secrets are stored encrypted with kube's prefix and read back decrypted; other kinds stay JSON`, async () => {
      const h = await startHarness({}, { encryption: config(`[${body}, {identity: {}}]`) });
      expect((await h.req('POST', SECRETS, secret('db'))).status).toBe(201);
      expect((await h.req('POST', CMS, configMap('plain', { note: 'visible' }))).status).toBe(201);

      const stored = await raw(h.storage, '/registry/secrets/default/db');
      expect(stored.startsWith(`k8s:enc:${provider}:v1:key1:`)).toBe(true);
      expect(stored).not.toContain('hunter2');
      expect(stored).not.toContain(Buffer.from('hunter2').toString('base64'));
      expect(stored).not.toContain('"db"');
      expect(JSON.parse(await raw(h.storage, '/registry/configmaps/default/plain')).data).toEqual({ note: 'visible' });

      const got = await h.req('GET', `${SECRETS}/db`);
      expect(got.status).toBe(200);
      expect(Buffer.from(got.body.data.password, 'base64').toString()).toBe('hunter2');
      const list = await h.req('GET', `${SECRETS}?resourceVersion=0`);
      expect(list.body.items.map((s: any) => s.metadata.name)).toEqual(['db']);
      expect(Buffer.from(list.body.items[0].data.password, 'base64').toString()).toBe('hunter2');
      await h.server.stop();
    });
  }

  it('watches see decrypted objects, from storage and from the watch cache', async () => {
    const h = await startHarness({}, { encryption: config(`[${aescbc(['key1', key()])}]`) });
    const watch = await openWatch(h, `${SECRETS}?watch=true`);
    expect((await h.req('POST', SECRETS, secret('w', 'seen'))).status).toBe(201);
    const [added] = await watch.next(1);
    expect(added.type).toBe('ADDED');
    expect(Buffer.from(added.object.data.password, 'base64').toString()).toBe('seen');
    watch.close();
    await h.server.stop();
  });

  it('rotation: a replace of an unchanged secret rewrites it with the first key; the old key can then go', async () => {
    const storage = kept(createMemoryBackend());
    const k1 = key();
    const k2 = key();
    let h = await startHarness({}, { storage, encryption: config(`[${aescbc(['key1', k1])}, {identity: {}}]`) });
    expect((await h.req('POST', SECRETS, secret('rotated'))).status).toBe(201);
    expect((await raw(storage, '/registry/secrets/default/rotated')).startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    await h.server.stop();

    // key2 added first: it writes, key1 still reads. An unchanged replace writes again, with key2.
    h = await startHarness({}, { storage, encryption: config(`[${aescbc(['key2', k2], ['key1', k1])}, {identity: {}}]`) });
    const current = (await h.req('GET', `${SECRETS}/rotated`)).body;
    const replaced = await h.req('PUT', `${SECRETS}/rotated`, current);
    expect(replaced.status).toBe(200);
    expect(Number(replaced.body.metadata.resourceVersion)).toBeGreaterThan(Number(current.metadata.resourceVersion));
    expect((await raw(storage, '/registry/secrets/default/rotated')).startsWith('k8s:enc:aescbc:v1:key2:')).toBe(true);
    // Once rewritten, another unchanged replace is the usual no-op.
    const again = await h.req('PUT', `${SECRETS}/rotated`, replaced.body);
    expect(again.body.metadata.resourceVersion).toBe(replaced.body.metadata.resourceVersion);
    await h.server.stop();

    // key1 dropped: the secret still reads.
    h = await startHarness({}, { storage, encryption: config(`[${aescbc(['key2', k2])}, {identity: {}}]`) });
    expect(Buffer.from((await h.req('GET', `${SECRETS}/rotated`)).body.data.password, 'base64').toString()).toBe('hunter2');
    await h.server.stop();
  });

  it('a value no configured provider reads is a 500 Status, kept out of lists from the cache, and can be force-deleted', async () => {
    const storage = kept(createMemoryBackend());
    let h = await startHarness({}, { storage, encryption: config(`[${aescbc(['key1', key()])}]`) });
    const lost = await h.req('POST', SECRETS, secret('lost'));
    expect(lost.status).toBe(201);
    await h.server.stop();

    // Without lists from cache snapshots, an exact list is read from storage.
    h = await startHarness({ AllowUnsafeMalformedObjectDeletion: true }, {
      storage, encryption: config(`[{secretbox: {keys: [{name: other, secret: '${key()}'}]}}]`), watchCache: { listFromCacheSnapshot: false },
    });
    expect((await h.req('POST', SECRETS, secret('fresh'))).status).toBe(201);
    const got = await h.req('GET', `${SECRETS}/lost`);
    expect(got.status).toBe(500);
    expect(got.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
    expect(got.body.message).toBe(
      'Internal error occurred: StorageError: corrupt object, Code: 7, Key: /registry/secrets/default/lost, ResourceVersion: 0, AdditionalErrorMsg: no matching prefix found',
    );
    // A list from storage fails as kube's does; the watch cache leaves the value out.
    const fromStorage = await h.req('GET', `${SECRETS}?resourceVersion=${lost.body.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(fromStorage.status).toBe(500);
    expect(fromStorage.body.message).toContain('no matching prefix found');
    await waitFor(async () => (await h.req('GET', `${SECRETS}?resourceVersion=0`)).status === 200);
    expect((await h.req('GET', `${SECRETS}?resourceVersion=0`)).body.items.map((s: any) => s.metadata.name)).toEqual(['fresh']);
    // An update cannot read it either; the unsafe forced deletion removes it.
    expect((await h.req('PUT', `${SECRETS}/lost`, secret('lost'))).status).toBe(500);
    expect((await h.req('DELETE', `${SECRETS}/lost`)).status).toBe(500);
    const forced = await h.req('DELETE', `${SECRETS}/lost`, { apiVersion: 'v1', kind: 'DeleteOptions', ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(forced.status).toBe(200);
    expect((await h.req('GET', `${SECRETS}/lost`)).status).toBe(404);
    await h.server.stop();

    // Without any configuration, an encrypted value is named as such.
    const plain = await startHarness({}, { storage });
    expect((await plain.req('GET', `${SECRETS}/fresh`)).body.message).toContain('AdditionalErrorMsg: identity transformer tried to read encrypted data');
    await plain.server.stop();
  });
});

/** A memory backend that outlives the servers on it (stop() closes storage), as a database file does. */
function kept(storage: StorageBackend): StorageBackend {
  return { ...storage, close: async () => {} };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}
