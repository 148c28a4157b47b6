import { isDeepStrictEqual } from 'node:util';
import { podTemplateWarnings, selectorMismatch, validateRunningPodTemplate } from '@kapi/api-core';
import { labelSelectorFromObject, validateLabelSelector, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

interface WorkloadSpec {
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | null;
  template?: { metadata?: { labels?: Record<string, string> }; spec?: { restartPolicy?: string } };
}

const specOf = (obj: KubeObject) => ((obj as { spec?: WorkloadSpec }).spec ?? {}) as WorkloadSpec;

/**
 * kube's ValidateDeploymentSpec / ValidateReplicaSetSpec / ValidateDaemonSetSpec / ValidateStatefulSetSpec rules
 * clients meet first: a selector is required and not empty and selects the pod template's labels; the template is a
 * valid pod template (@kapi/api-core's pod checks; for StatefulSets, as kube, only its labels and annotations) whose
 * pods restart Always with no active deadline.
 */
function validateWorkload(obj: KubeObject, kind: string, owner: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj);
  const selector = spec.selector;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!selector) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector', message: '' });
  } else {
    errs.push(...validateLabelSelector(selector, 'spec.selector'));
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: selector, message: `empty selector is invalid for ${kind}` });
    }
    let parsed;
    try {
      parsed = labelSelectorFromObject(selector as never);
    } catch {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: selector, message: 'invalid label selector' });
    }
    if (parsed && !parsed.isEmpty() && !parsed.matches(labels)) {
      errs.push(selectorMismatch('spec.template.metadata.labels', spec.template?.metadata?.labels));
    }
  }
  errs.push(...validateRunningPodTemplate(spec.template, 'spec.template', owner, { podSpec: owner !== 'StatefulSet' }));
  return errs;
}

/**
 * A workload kind's strategy: validated as kube validates it; in apps/v1 its selector never changes. `kind` is how
 * kube names it in the empty-selector message (`deployment` for ReplicaSets too), `owner` in the active-deadline one
 * (`ReplicaSet` for Deployments too).
 */
export function workloadStrategy(kind: string, owner: string, extra: Strategy = {}): Strategy {
  return {
    ...extra,
    validate: (obj) => validateWorkload(obj, kind, owner),
    warnings: (obj) => podTemplateWarnings(specOf(obj).template, 'spec.template'),
    validateUpdate: (obj, old, ctx) => {
      // A status update changes no spec: kube's status strategies check the status only.
      if (ctx.subresource === 'status') return [];
      const errs = validateWorkload(obj, kind, owner);
      const selector = specOf(obj).selector;
      if (!isDeepStrictEqual(selector, specOf(old).selector)) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: selector, message: 'field is immutable' });
      }
      return errs;
    },
  };
}
