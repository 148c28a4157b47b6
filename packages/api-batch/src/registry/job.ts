import { isDeepStrictEqual } from 'node:util';
import { fieldNotSupported, labelSelectorFromObject, validateLabelSelector, type FieldError, type KubeObject, type LabelSelector, type TypeDefaulter } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { podTemplateWarnings, selectorMismatch, validatePodTemplateSpec } from '@kapi/api-core';
import { jobTemplateUpdateErrors } from './job-template-update.js';

type Template = { metadata?: { labels?: Record<string, string> }; spec?: { restartPolicy?: string } };
export type JobSpec = {
  manualSelector?: boolean;
  selector?: LabelSelector;
  template?: Template;
  completions?: number;
  parallelism?: number;
  podFailurePolicy?: unknown;
  podReplacementPolicy?: string;
};
type Job = KubeObject & { spec?: JobSpec };

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
const LEGACY_JOB_NAME_LABEL = 'job-name';

/**
 * kube's generateSelector: unless `spec.manualSelector` is true, the Job selects its own pods by its uid, and its
 * pod template carries the uid and the Job's name (in the batch.kubernetes.io labels and the legacy ones).
 */
function generateSelector(job: Job): void {
  const spec = (job.spec ??= {});
  if (spec.manualSelector === true) return;
  const uid = String(job.metadata?.uid ?? '');
  const name = String(job.metadata?.name ?? '');
  const template = (spec.template ??= {});
  const labels = (template.metadata ??= {}).labels ?? {};
  template.metadata.labels = {
    ...labels,
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
  };
  spec.selector = { matchLabels: { [CONTROLLER_UID_LABEL]: uid } };
}

/**
 * kube's validateJobSpec, the part clients meet first: a valid pod template (@kapi/api-core's pod checks) whose
 * pods restart OnFailure or Never (Never with a pod failure policy). A CronJob's job template is checked with it at
 * `spec.jobTemplate.spec`; a Job's own spec also needs its selector (validateJob).
 */
export function validateJobSpec(spec: JobSpec, field: string): FieldError[] {
  const errs = validatePodTemplateSpec(spec.template, `${field}.template`);
  const restartPolicy = spec.template?.spec?.restartPolicy;
  const at = `${field}.template.spec.restartPolicy`;
  // kube: a policy left out was defaulted to Always, so both are "Required".
  if (restartPolicy === 'Always' || !restartPolicy) errs.push({ type: 'FieldValueRequired', field: at, message: 'valid values: "OnFailure", "Never"' });
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(fieldNotSupported(at, restartPolicy, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy && restartPolicy !== 'Never') {
    errs.push({ type: 'FieldValueInvalid', field: at, badValue: restartPolicy, message: 'only "Never" is supported when podFailurePolicy is specified' });
  }
  return errs;
}

/** kube's ValidateJobSpec: the spec's checks, then a selector that selects the pod template's labels. */
function validateJob(job: Job): FieldError[] {
  const spec = job.spec ?? {};
  const errs = validateJobSpec(spec, 'spec');
  if (!spec.selector) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector', message: '' });
    return errs;
  }
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const labels = spec.template?.metadata?.labels ?? {};
  let matches = true;
  try {
    matches = labelSelectorFromObject(spec.selector).matches(labels);
  } catch {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: spec.selector, message: 'invalid label selector' });
  }
  if (!matches) errs.push(selectorMismatch('spec.template.metadata.labels', spec.template?.metadata?.labels));
  return errs;
}

const immutable = (field: string): FieldError => ({ type: 'FieldValueInvalid', field, message: 'field is immutable' });

/**
 * Jobs (kube's pkg/registry/batch/job): a new Job gets, in validation as kube does it (the uid and a generated
 * name are known by then), its generated selector; its selector never changes, nor its pod template but for the
 * scheduling directives of a suspended Job that never started (./job-template-update.ts). (Its status starts
 * empty: the schema's default, which the store gives kinds with a status subresource.)
 */
export const jobStrategy: Strategy = {
  warnings: (obj) => podTemplateWarnings((obj as Job).spec?.template, 'spec.template'),
  validate(obj) {
    generateSelector(obj as Job);
    return validateJob(obj as Job);
  },
  validateUpdate(obj, old, ctx) {
    // A status update changes no spec: kube's status strategy checks the status only.
    if (ctx.subresource === 'status') return [];
    const [now, before] = [(obj as Job).spec ?? {}, (old as Job).spec ?? {}];
    const errs = validateJob(obj as Job);
    if (!isDeepStrictEqual(now.selector, before.selector)) errs.push(immutable('spec.selector'));
    errs.push(...jobTemplateUpdateErrors(obj as Job, old as Job));
    return errs;
  },
};

/** SetDefaults_Job's dependent part: completions and parallelism, the pod replacement policy. */
export const jobSpecDefaulter: TypeDefaulter = (spec) => {
  const s = spec as JobSpec;
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  if (s.parallelism === undefined) s.parallelism = 1;
  if (s.podReplacementPolicy === undefined) s.podReplacementPolicy = s.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
};
