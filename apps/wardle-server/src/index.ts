export { createWardleApiServer } from './apiserver.js';
export { DEFAULT_SECURE_PORT, FlagError, STORAGE_BACKENDS, parseFlags, usage, type StorageBackendName, type WardleConfig } from './flags.js';
export { SQLITE_DATABASE, createStorage } from './storage.js';
