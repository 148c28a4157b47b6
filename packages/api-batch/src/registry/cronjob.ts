import type { FieldError, KubeObject } from '@kapi/apimachinery';
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

/** CronJobs (kube's pkg/registry/batch/cronjob): a schedule that parses. */
export const cronJobStrategy: Strategy = { validate: validateSchedule };
