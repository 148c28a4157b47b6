import {
  age,
  ageSince,
  at,
  formatLabelSelector,
  humanDuration,
  int,
  listAt,
  parseTimestamp,
  str,
  type KubeObject,
  type TablePrinter,
} from '@kapi/apimachinery';
import { podTemplateCells } from '@kapi/api-core';

const hasCondition = (obj: KubeObject, type: string): boolean =>
  listAt(obj, 'status.conditions').some((c) => at(c, 'type') === type && at(c, 'status') === 'True');

/** printJob's STATUS: the first of Complete, Failed, Terminating, Suspended, FailureTarget, SuccessCriteriaMet, Running. */
function jobStatus(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** printJob's COMPLETIONS: succeeded/completions, or succeeded/1 (of parallelism) for a work queue. */
function jobCompletions(job: KubeObject): string {
  const succeeded = int(at(job, 'status.succeeded'));
  const completions = at(job, 'spec.completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = int(at(job, 'spec.parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** printJob's DURATION: from start to completion, or to now while running; empty before it starts. */
function jobDuration(job: KubeObject, now: number): string {
  try {
    const start = parseTimestamp(str(at(job, 'status.startTime')));
    if (start === null) return '';
    const end = parseTimestamp(str(at(job, 'status.completionTime')));
    return humanDuration((end ?? now) - start);
  } catch {
    return '<invalid>';
  }
}

const job: TablePrinter = {
  cells: {
    Status: jobStatus,
    Completions: jobCompletions,
    Duration: jobDuration,
    Age: age,
    ...podTemplateCells(),
    Selector: (obj) => formatLabelSelector(at(obj, 'spec.selector')),
  },
  conditions: (obj) => {
    if (hasCondition(obj, 'Complete')) return [{ type: 'Completed', status: 'True', reason: 'Complete', message: 'The job has completed successfully.' }];
    if (hasCondition(obj, 'Failed')) return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The job failed.' }];
    return undefined;
  },
};

const boolPtr = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : '<unset>');

const cronJob: TablePrinter = {
  cells: {
    Schedule: (obj) => str(at(obj, 'spec.schedule')),
    Timezone: (obj) => str(at(obj, 'spec.timeZone')) || '<none>',
    Suspend: (obj) => boolPtr(at(obj, 'spec.suspend')),
    Active: (obj) => listAt(obj, 'status.active').length,
    'Last Schedule': (obj, now) => (at(obj, 'status.lastScheduleTime') ? ageSince(at(obj, 'status.lastScheduleTime'), now) : '<none>'),
    Age: age,
    ...podTemplateCells('spec.jobTemplate.spec.template.spec'),
    Selector: (obj) => formatLabelSelector(at(obj, 'spec.jobTemplate.spec.selector')),
  },
};

/** kube's table printers of batch/v1 kinds, as for `-o wide`. */
export const BATCH_PRINTERS: Record<string, TablePrinter> = { Job: job, CronJob: cronJob };
