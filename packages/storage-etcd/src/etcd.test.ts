import { runStorageConformance } from '@kapi/storage/testing';
import type { StorageBackend } from '@kapi/storage';
import { afterAll, describe } from 'vitest';
import { createEtcdBackend } from './index.js';
import { skipWithoutEtcd, startEtcd, type EtcdProcess } from './testing/index.js';

// One etcd for the suite; each test gets its own key prefix, so it starts empty and alone. Compaction is
// cluster-wide: after a test compacted, the next one gets a fresh etcd, so every test starts uncompacted.
let etcd: EtcdProcess | undefined;
let n = 0;

async function freshBackend(): Promise<StorageBackend> {
  if (etcd) {
    const probe = createEtcdBackend({ endpoints: [etcd.endpoint] });
    const compacted = await probe.compactedRevision();
    await probe.close();
    if (compacted > 1) {
      await etcd.destroy();
      etcd = undefined;
    }
  }
  etcd ??= await startEtcd();
  return createEtcdBackend({ endpoints: [etcd.endpoint], prefix: `/conformance-${++n}` });
}

afterAll(async () => {
  await etcd?.destroy();
});

describe.skipIf(skipWithoutEtcd())('etcd', () => {
  runStorageConformance('etcd', freshBackend);
});
