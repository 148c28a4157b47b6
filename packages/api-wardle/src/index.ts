// The wardle.example.com group package. Everything under ./generated comes from schemas/wardle/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin } from './registry/plugin.js';
export { hooks as conversionHooks } from './registry/conversion.js';
