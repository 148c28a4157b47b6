// The autoscaling group package. Everything under ./generated comes from schemas/autoscaling/;
// add hand-written strategies and helpers beside it, in this directory.
export * from './generated/index.js';
