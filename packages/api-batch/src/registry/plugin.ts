import { textAt } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { CORE_DEFAULTERS } from '@kapi/api-core';
import { group } from '../generated/index.js';
import { cronJobStrategy } from './cronjob.js';
import { jobSpecDefaulter, jobStrategy } from './job.js';
import { BATCH_PRINTERS } from './printers.js';

/**
 * The batch group as a server installs it: Jobs' generated selector and immutable template, CronJobs' schedule,
 * their table printers and defaulters (with the core group's, for the pod templates they embed).
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: { Job: { ...jobStrategy, fieldLabels: { 'status.successful': textAt('status.succeeded') } }, CronJob: cronJobStrategy },
  printers: BATCH_PRINTERS,
  defaulters: { ...CORE_DEFAULTERS, 'batch/v1/JobSpec': jobSpecDefaulter },
};
