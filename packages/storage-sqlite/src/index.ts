// Public API of @kapi/storage-sqlite: the embedded, durable default backend of kapi-server.
export { createSqliteBackend, type SqliteBackendOptions } from './backend.js';
export { SCHEMA_VERSION } from './schema.js';
