import type { LogSink } from '@kapi/apiserver';
import type { StorageBackend } from '@kapi/storage';
import { openStorage } from '@kapi/server/storage';
import type { WardleConfig } from './flags.js';

/** The SQLite database of `--storage-backend=sqlite`, inside `--data-dir`. */
export const SQLITE_DATABASE = 'wardle.db';

/**
 * wardle-server's own storage (an extension server never shares the main server's): SQLite in `--data-dir`, or
 * etcd, opened as kapi-server opens it.
 */
export function createStorage(config: WardleConfig, log: LogSink): Promise<StorageBackend> {
  return openStorage(config, SQLITE_DATABASE, log);
}
