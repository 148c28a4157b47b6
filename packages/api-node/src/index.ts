// The node.k8s.io group package. Everything under ./generated comes from schemas/node/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin } from './registry/plugin.js';
export { runtimeClassAdmission } from './registry/runtime-class.js';
