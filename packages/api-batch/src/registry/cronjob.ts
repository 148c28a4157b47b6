import { fieldNotSupported, isObj, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { podTemplateWarnings } from '@kapi/api-core';
import { validateJobSpec, type JobSpec } from './job.js';
import type { Strategy } from '@kapi/apiserver';

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** The part of kube's ValidateCronJob clients meet: a standard five-field schedule or a descriptor. */
function validateSchedule(obj: KubeObject): FieldError[] {
  const schedule = String((obj.spec as { schedule?: unknown } | undefined)?.schedule ?? '');
  if (!schedule) return [{ type: 'FieldValueRequired', field: 'spec.schedule', message: '' }];
  if (schedule.startsWith('@')) {
    if (DESCRIPTORS.has(schedule) || /^@every \S+$/.test(schedule)) return [];
    return [{ type: 'FieldValueInvalid', field: 'spec.schedule', badValue: schedule, message: `unrecognized descriptor: ${schedule}` }];
  }
  const fields = schedule.trim().replace(/^(CRON_TZ|TZ)=\S+\s+/, '').split(/\s+/);
  if (fields.length !== 5) {
    return [{ type: 'FieldValueInvalid', field: 'spec.schedule', badValue: schedule, message: `expected exactly 5 fields, found ${fields.length}: ${schedule}` }];
  }
  return [];
}

/**
 * kube's ValidateJobTemplateSpec: the job spec's checks (a valid pod template, a restart policy of OnFailure or
 * Never), and no selector of its own (each Job gets a generated one).
 */
function validateJobTemplate(obj: KubeObject): FieldError[] {
  const template = (obj.spec as { jobTemplate?: { spec?: JobSpec } } | undefined)?.jobTemplate;
  const spec = template?.spec ?? {};
  const errs = validateJobSpec(spec, 'spec.jobTemplate.spec');
  if (spec.selector) errs.push({ type: 'FieldValueInvalid', field: 'spec.jobTemplate.spec.selector', badValue: spec.selector, message: '`selector` will be auto-generated' });
  if (spec.manualSelector === true) errs.push(fieldNotSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return errs;
}

const validateCronJob = (obj: KubeObject): FieldError[] => [...validateSchedule(obj), ...validateJobTemplate(obj)];

/** CronJobs (kube's pkg/registry/batch/cronjob): a schedule that parses, and a valid job template. */
export const cronJobStrategy: Strategy = {
  validate: validateCronJob,
  warnings: (obj) => {
    const jobTemplate = isObj(obj.spec) && isObj(obj.spec.jobTemplate) ? obj.spec.jobTemplate : {};
    return podTemplateWarnings(isObj(jobTemplate.spec) ? jobTemplate.spec.template : undefined, 'spec.jobTemplate.spec.template');
  },
  // A status update changes no spec: kube's status strategy checks the status only.
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? [] : validateCronJob(obj)),
};
