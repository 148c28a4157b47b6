// The scheduling.k8s.io group package. Everything under ./generated comes from schemas/scheduling/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin, SYSTEM_PRIORITY_CLASSES } from './registry/plugin.js';
