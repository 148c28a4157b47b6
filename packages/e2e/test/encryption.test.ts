// Encryption at rest (`--encryption-provider-config`) through the real server: Secrets written with kubectl are
// stored under kube's `k8s:enc:<provider>:v1:<key>:` prefix (the raw bytes in SQLite and in etcd say so, and the
// Secret's data is nowhere in the database files), read back decrypted, and re-encrypted with a new key by
// `kubectl get secrets -A -o json | kubectl replace -f -`.
import { createEtcdBackend } from '@kapi/storage-etcd';
import { skipWithoutEtcd, startEtcd, type EtcdProcess } from '@kapi/storage-etcd/testing';
import { createSqliteBackend } from '@kapi/storage-sqlite';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlRunner } from '../src/kubectl.js';
import { freePort, startServerProcess, type ServerProcess } from '../src/server.js';
import { request, startHttpServer } from './storage-helpers.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const dir = mkdtempSync(join(tmpdir(), 'kapi-encryption-'));
const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');
const SECRET_KEY = '/registry/secrets/default/db-password';
const PASSWORD = 'correct horse battery staple';

/** An EncryptionConfiguration for secrets with these providers, written to a file. */
function encryptionConfig(name: string, providers: unknown[]): string {
  const path = join(dir, `${name}.yaml`);
  const config = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources: ['secrets'], providers }] };
  writeFileSync(path, JSON.stringify(config));
  return path;
}
const aescbc = (...keys: [string, string][]) => ({ aescbc: { keys: keys.map(([name, secret]) => ({ name, secret })) } });

/** The stored bytes of a key, read from the SQLite database of a stopped server, without the server. */
async function storedInSqlite(dataDir: string, key: string): Promise<string> {
  const backend = createSqliteBackend({ path: join(dataDir, 'kapi.db') });
  try {
    const { kv } = await backend.get(key);
    return Buffer.from(kv!.value).toString('latin1');
  } finally {
    await backend.close();
  }
}

/** Every byte of the database files, as text: what anyone who can read the data directory sees. */
const databaseFiles = (dataDir: string) =>
  ['kapi.db', 'kapi.db-wal'].map((f) => join(dataDir, f)).filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');

describe.skipIf(!kubectlPath)('encryption at rest on SQLite, with kubectl', () => {
  let server: ServerProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-encryption-data-'));
  const start = async (config: string) => {
    server = await startServerProcess([`--encryption-provider-config=${config}`], { dataDir });
    return kubectlRunner(kubectlPath!, server.kubeconfig);
  };
  const stop = async () => {
    await server?.stop();
    server = undefined;
  };
  afterAll(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores Secrets encrypted, serves them decrypted, and re-encrypts them with a new key on replace', async () => {
    let kubectl = await start(encryptionConfig('one-key', [aescbc(['key1', KEY1]), { identity: {} }]));
    expect(server!.output()).toContain('encryption at rest: secrets');
    expect(kubectl('create', 'secret', 'generic', 'db-password', `--from-literal=password=${PASSWORD}`).status).toBe(0);
    expect(kubectl('create', 'configmap', 'plain', '--from-literal=note=in the clear').status).toBe(0);
    const read = kubectl('get', 'secret', 'db-password', '-o', 'jsonpath={.data.password}');
    expect(Buffer.from(read.stdout, 'base64').toString()).toBe(PASSWORD);
    await stop();

    const stored = await storedInSqlite(dataDir, SECRET_KEY);
    expect(stored.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    const files = databaseFiles(dataDir);
    expect(files).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(files).not.toContain(PASSWORD);
    // Resources the configuration does not name stay JSON.
    expect(JSON.parse(await storedInSqlite(dataDir, '/registry/configmaps/default/plain')).data).toEqual({ note: 'in the clear' });

    // Rotation, as kube documents it: the new key first (it writes), the old one still reads; then replace all.
    kubectl = await start(encryptionConfig('two-keys', [aescbc(['key2', KEY2], ['key1', KEY1])]));
    const all = join(dir, 'secrets.json');
    const listed = kubectl('get', 'secrets', '-A', '-o', 'json');
    expect(listed.status).toBe(0);
    writeFileSync(all, listed.stdout);
    const replaced = kubectl('replace', '-f', all);
    expect([replaced.status, replaced.stderr]).toEqual([0, '']);
    expect(replaced.stdout).toContain('secret/db-password replaced');
    await stop();
    expect((await storedInSqlite(dataDir, SECRET_KEY)).startsWith('k8s:enc:aescbc:v1:key2:')).toBe(true);

    // The old key can go: the Secret reads with the new one alone.
    kubectl = await start(encryptionConfig('new-key-only', [aescbc(['key2', KEY2])]));
    const after = kubectl('get', 'secret', 'db-password', '-o', 'jsonpath={.data.password}');
    expect(Buffer.from(after.stdout, 'base64').toString()).toBe(PASSWORD);

    // Without the key the value cannot be read: a 500 Status naming the key, not the ciphertext as data.
    await stop();
    kubectl = await start(encryptionConfig('wrong-key', [aescbc(['key1', KEY1])]));
    const denied = kubectl('get', 'secret', 'db-password');
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain(`corrupt object, Code: 7, Key: ${SECRET_KEY}`);
  }, 120_000);

  it('refuses to start with a configuration kube-apiserver refuses', async () => {
    const bad = encryptionConfig('short-key', [aescbc(['key1', Buffer.alloc(10).toString('base64')])]);
    const main = join(import.meta.dirname, '../../../apps/server/dist/main.js');
    const run = spawnSync(process.execPath, [main, '--data-dir', mkdtempSync(join(tmpdir(), 'kapi-encryption-bad-')), `--secure-port=${await freePort()}`, `--encryption-provider-config=${bad}`], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`error while parsing encryption provider configuration file "${bad}"`);
  });
});

describe.skipIf(skipWithoutEtcd())('encryption at rest on etcd', () => {
  let etcd: EtcdProcess;
  let server: ServerProcess;
  beforeAll(async () => {
    etcd = await startEtcd();
    const config = encryptionConfig('gcm', [{ aesgcm: { keys: [{ name: 'gcm1', secret: Buffer.alloc(16, 7).toString('base64') }] } }]);
    server = await startHttpServer(['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`, `--encryption-provider-config=${config}`]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
    await etcd?.destroy();
  });

  it('stores the aesgcm ciphertext in etcd and serves the Secret decrypted', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-password' }, stringData: { password: PASSWORD } };
    expect((await request('POST', `${server.url}/api/v1/namespaces/default/secrets`, secret)).status).toBe(201);
    const backend = createEtcdBackend({ endpoints: [etcd.endpoint] });
    try {
      const { kv } = await backend.get(SECRET_KEY);
      const raw = Buffer.from(kv!.value).toString('latin1');
      expect(raw.startsWith('k8s:enc:aesgcm:v1:gcm1:')).toBe(true);
      expect(raw).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    } finally {
      await backend.close();
    }
    const read = await request('GET', `${server.url}/api/v1/namespaces/default/secrets/db-password`);
    expect(Buffer.from(read.body.data.password, 'base64').toString()).toBe(PASSWORD);
  });
});
