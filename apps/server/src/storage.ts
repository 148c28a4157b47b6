import type { LogSink } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { createSqliteBackend } from '@kapi/storage-sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secureDataDir } from '@kapi/serve';

/** Values of `--storage-backend`: the embedded default, kube's etcd3, and a store that keeps nothing. */
export const STORAGE_BACKENDS = ['sqlite', 'etcd3', 'memory'] as const;
export type StorageBackendName = (typeof STORAGE_BACKENDS)[number];

/** The storage flags every server here shares (`--storage-backend`, `--data-dir`, `--etcd-*`). */
export interface StorageFlags {
  storageBackend: StorageBackendName;
  dataDir: string;
  etcdServers: string[];
  etcdPrefix: string;
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
}

/**
 * Opens the storage backend the flags name: memory, SQLite (`database` inside `--data-dir`), or etcd. Throws when it
 * cannot (a database held by another server). The etcd client (gRPC) is loaded only for `--storage-backend=etcd3`:
 * it would add to every other start.
 */
export async function openStorage(config: StorageFlags, database: string, log: LogSink): Promise<StorageBackend> {
  switch (config.storageBackend) {
    case 'memory':
      log(0, 'storage: memory (nothing is kept across restarts)');
      return createMemoryBackend();
    case 'sqlite': {
      const path = join(config.dataDir, database);
      log(0, `storage: sqlite database ${path}`);
      const backend = createSqliteBackend({ path });
      secureDataDir(config.dataDir);
      return backend;
    }
    case 'etcd3': {
      const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
      log(0, `storage: etcd3 at ${config.etcdServers.join(',')}, prefix ${config.etcdPrefix}`);
      const { createEtcdBackend } = await import('@kapi/storage-etcd');
      return createEtcdBackend({
        endpoints: config.etcdServers,
        prefix: config.etcdPrefix,
        tls: { ca: read(config.etcdCaFile), cert: read(config.etcdCertFile), key: read(config.etcdKeyFile) },
      });
    }
  }
}
