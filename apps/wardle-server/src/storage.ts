import type { LogSink } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { createSqliteBackend } from '@kapi/storage-sqlite';
import { secureDataDir } from '@kapi/server/data-dir';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WardleConfig } from './flags.js';

/** The SQLite database of `--storage-backend=sqlite`, inside `--data-dir`. */
export const SQLITE_DATABASE = 'wardle.db';

/**
 * wardle-server's own storage (an extension server never shares the main server's): SQLite in `--data-dir`, or
 * etcd (loaded only then), as kapi-server opens it.
 */
export async function createStorage(config: WardleConfig, log: LogSink): Promise<StorageBackend> {
  switch (config.storageBackend) {
    case 'memory':
      log(0, 'storage: memory (nothing is kept across restarts)');
      return createMemoryBackend();
    case 'sqlite': {
      const path = join(config.dataDir, SQLITE_DATABASE);
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
