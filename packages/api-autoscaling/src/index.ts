// The autoscaling group package. Everything under ./generated comes from schemas/autoscaling/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin } from './registry/plugin.js';
export { hpaConversion, v1ToV2, v2ToV1 } from './registry/hpa-conversion.js';
