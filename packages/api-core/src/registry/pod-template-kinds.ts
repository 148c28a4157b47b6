import { fieldRequired, isObj, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { selectorMismatch, validatePodTemplateSpec, validateRunningPodTemplate } from './pod-validation.js';
import { podTemplateWarnings } from './pod-warnings.js';

// The core kinds that hold a pod template, validated as kube's ValidatePodTemplate and
// ValidateReplicationControllerSpec validate them (the apps and batch kinds have theirs in their own packages).

/** PodTemplates: their template is a valid pod template, on create and on update. */
export const podTemplateStrategy: Strategy = {
  validate: (obj) => validatePodTemplateSpec((obj as { template?: unknown }).template, 'template'),
  warnings: (obj) => podTemplateWarnings((obj as { template?: unknown }).template, 'template'),
};

/**
 * kube's ValidateReplicationControllerSpec and ValidatePodTemplateSpecForRC: a selector that is not empty and
 * selects the template's labels, and a template whose pods keep running.
 */
function validateReplicationController(rc: KubeObject): FieldError[] {
  const spec = isObj(rc.spec) ? rc.spec : {};
  const selector = isObj(spec.selector) ? (spec.selector as Record<string, unknown>) : {};
  const errs: FieldError[] = [];
  if (Object.keys(selector).length === 0) errs.push(fieldRequired('spec.selector'));
  if (!isObj(spec.template)) {
    errs.push(fieldRequired('spec.template'));
    return errs;
  }
  const meta = isObj(spec.template.metadata) ? spec.template.metadata : {};
  const labels = isObj(meta.labels) ? (meta.labels as Record<string, unknown>) : {};
  if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) errs.push(selectorMismatch('spec.template.metadata.labels', meta.labels));
  errs.push(...validateRunningPodTemplate(spec.template, 'spec.template', 'ReplicationController'));
  return errs;
}

export const replicationControllerStrategy: Strategy = {
  validate: validateReplicationController,
  warnings: (obj) => podTemplateWarnings(isObj(obj.spec) ? obj.spec.template : undefined, 'spec.template'),
  // A status update changes no spec: kube's status strategy checks the status only.
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? [] : validateReplicationController(obj)),
};
