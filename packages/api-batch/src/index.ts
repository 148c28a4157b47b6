// The batch group package. Everything under ./generated comes from schemas/batch/;
// add hand-written strategies and helpers beside it, in this directory.
export * from './generated/index.js';
