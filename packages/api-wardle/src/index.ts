// The wardle.example.com group package. Everything under ./generated comes from schemas/wardle/;
// add hand-written strategies and helpers beside it, in this directory.
export * from './generated/index.js';
