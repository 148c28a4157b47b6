// The core group package. Everything under ./generated comes from schemas/core/;
// add hand-written strategies and helpers beside it, in this directory.
export * from './generated/index.js';
