// The storage.k8s.io group package. Everything under ./generated comes from schemas/storage/;
// add hand-written strategies and helpers beside it, in this directory.
export * from './generated/index.js';
