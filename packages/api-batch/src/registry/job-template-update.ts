import { isDeepStrictEqual } from 'node:util';
import { cloneJson, type FieldError } from '@kapi/apimachinery';

type Affinity = { nodeAffinity?: unknown } & Record<string, unknown>;
type Template = {
  metadata?: { labels?: unknown; annotations?: unknown } & Record<string, unknown>;
  spec?: { affinity?: Affinity; nodeSelector?: unknown; tolerations?: unknown; schedulingGates?: unknown } & Record<string, unknown>;
} & Record<string, unknown>;
export type JobForTemplateUpdate = { spec?: { suspend?: boolean; template?: Template }; status?: { startTime?: string } };

const put = (obj: Record<string, unknown>, key: string, value: unknown) => {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
};

/**
 * The old template as kube compares it when the scheduling directives may change (validatePodTemplateUpdate with
 * AllowMutableSchedulingDirectives): the new template's node affinity, node selector, tolerations, scheduling gates,
 * labels and annotations taken over; an affinity may be dropped only if it held nothing but a node affinity.
 */
function withDirectivesOf(old: Template, now: Template): Template {
  const before = cloneJson(old);
  const spec = (before.spec ??= {});
  const [newAffinity, oldAffinity] = [now.spec?.affinity, spec.affinity];
  if (newAffinity === undefined && oldAffinity !== undefined) {
    delete oldAffinity.nodeAffinity;
    if (Object.keys(oldAffinity).length === 0) delete spec.affinity;
  } else if (newAffinity !== undefined && oldAffinity === undefined) {
    spec.affinity = {};
    put(spec.affinity, 'nodeAffinity', newAffinity.nodeAffinity);
  } else if (newAffinity !== undefined && oldAffinity !== undefined) {
    put(oldAffinity, 'nodeAffinity', newAffinity.nodeAffinity);
  }
  put(spec, 'nodeSelector', now.spec?.nodeSelector);
  put(spec, 'tolerations', now.spec?.tolerations);
  put(spec, 'schedulingGates', now.spec?.schedulingGates);
  if (Object.keys(spec).length === 0 && now.spec === undefined) delete before.spec;
  const metadata = (before.metadata ??= {});
  put(metadata, 'labels', now.metadata?.labels);
  put(metadata, 'annotations', now.metadata?.annotations);
  if (Object.keys(metadata).length === 0 && now.metadata === undefined) delete before.metadata;
  return before;
}

/**
 * `spec.template` of a Job never changes (kube's ValidateJobSpecUpdate), except that while the Job is suspended and
 * has never started (JobMutableNodeSchedulingDirectives, GA) its pods' scheduling directives — node affinity, node
 * selector, tolerations, scheduling gates — and the template's labels and annotations may.
 */
export function jobTemplateUpdateErrors(job: JobForTemplateUpdate, old: JobForTemplateUpdate): FieldError[] {
  const template = job.spec?.template ?? {};
  let before = old.spec?.template ?? {};
  if (old.spec?.suspend === true && !old.status?.startTime) before = withDirectivesOf(before, template);
  return isDeepStrictEqual(template, before) ? [] : [{ type: 'FieldValueInvalid', field: 'spec.template', message: 'field is immutable' }];
}
