// Public API of @kapi/storage-etcd. Test helpers that run a real etcd: `@kapi/storage-etcd/testing`.
export { createEtcdBackend, type EtcdBackendOptions } from './backend.js';
export type { EtcdTlsOptions } from './client.js';
export { parseEndpoint } from './client.js';
export { ETCD_RPC_PROTO } from './proto.js';
