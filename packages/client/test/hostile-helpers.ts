export * from '../src/index.js';
export { watchEvents as watchEventsForTest } from '../src/watch.js';
