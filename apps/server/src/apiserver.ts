import { group as apps } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as coordination } from '@kapi/api-coordination';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { group as rbac } from '@kapi/api-rbac';
import { group as wardle } from '@kapi/api-wardle';
import { createApiServer, defaultVersionInfo, groupPlugin, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend, startCompactor, type StorageBackend } from '@kapi/storage';
import { createEtcdBackend } from '@kapi/storage-etcd';
import { createSqliteBackend } from '@kapi/storage-sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from './flags.js';

/** kapi-server's version, set by tsup from package.json. */
declare const __KAPI_SERVER_VERSION__: string | undefined;
const version = typeof __KAPI_SERVER_VERSION__ === 'string' ? __KAPI_SERVER_VERSION__ : '0.0.0';

/** Every group the sample server serves, in discovery order (core first, as kube-apiserver). */
export const GROUPS = [core, apps, autoscaling, policy, coordination, rbac, authorization, authentication, wardle];

/** The SQLite database of `--storage-backend=sqlite`, inside `--data-dir`. */
export const SQLITE_DATABASE = 'kapi.db';

/** Opens the storage backend the configuration names. Throws when it cannot (a database held by another server). */
export function createStorage(config: ServerConfig, log: (level: number, message: string) => void): StorageBackend {
  switch (config.storageBackend) {
    case 'memory':
      log(0, 'storage: memory (nothing is kept across restarts)');
      return createMemoryBackend();
    case 'sqlite': {
      const path = join(config.dataDir, SQLITE_DATABASE);
      log(0, `storage: sqlite database ${path}`);
      return createSqliteBackend({ path });
    }
    case 'etcd3': {
      const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
      log(0, `storage: etcd3 at ${config.etcdServers.join(',')}, prefix ${config.etcdPrefix}`);
      return createEtcdBackend({
        endpoints: config.etcdServers,
        prefix: config.etcdPrefix,
        tls: { ca: read(config.etcdCaFile), cert: read(config.etcdCertFile), key: read(config.etcdKeyFile) },
      });
    }
  }
}

/**
 * Composes the API server from the configuration: storage → group plugins → ApiServer, plus the compactor of
 * `--etcd-compaction-interval`, which runs while the server does.
 */
export function createKapiApiServer(config: ServerConfig, log: (level: number, message: string) => void): ApiServer {
  const storage = createStorage(config, log);
  const apiServer = createApiServer({
    storage,
    plugins: GROUPS.map((definition) => groupPlugin(definition)),
    featureGates: config.featureGates,
    version: defaultVersionInfo(version),
    log,
  });
  let compactor: { stop(): void } | undefined;
  return {
    ...apiServer,
    async start() {
      await startRacingPeers(apiServer);
      compactor = startCompactor(storage, { intervalMs: config.etcdCompactionIntervalMs, log: (message) => log(2, message) });
    },
    async stop() {
      compactor?.stop();
      await apiServer.stop();
    },
  };
}

/**
 * Several servers on one etcd may bootstrap at once: each creates the system namespaces it did not find, and all
 * but one lose that race with AlreadyExists. Starting again then finds them and goes on.
 */
async function startRacingPeers(apiServer: ApiServer, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await apiServer.start();
    } catch (error) {
      const reason = (error as { status?: { reason?: string } }).status?.reason;
      if (reason !== 'AlreadyExists' || attempt >= attempts) throw error;
    }
  }
}
