// The events.k8s.io group package. Everything under ./generated comes from schemas/events/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin } from './registry/plugin.js';
export { coreToEvents, eventConversion, eventsToCore } from './registry/conversion.js';
