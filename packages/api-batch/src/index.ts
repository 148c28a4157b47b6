// The batch group package. Everything under ./generated comes from schemas/batch/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin`.
export * from './generated/index.js';
export { plugin } from './registry/plugin.js';
export { CONTROLLER_UID_LABEL, JOB_NAME_LABEL } from './registry/job.js';
