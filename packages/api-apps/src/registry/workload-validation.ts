import { isDeepStrictEqual } from 'node:util';
import { fieldNotSupported, labelSelectorFromObject, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

interface WorkloadSpec {
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | null;
  template?: { metadata?: { labels?: Record<string, string> }; spec?: { restartPolicy?: string } };
}

const specOf = (obj: KubeObject) => ((obj as { spec?: WorkloadSpec }).spec ?? {}) as WorkloadSpec;

/**
 * kube's ValidateDeploymentSpec / ValidateReplicaSetSpec / ValidateDaemonSetSpec / ValidateStatefulSetSpec rules
 * clients meet first: a selector is required and not empty, selects the pod template's labels, and the pods restart
 * Always.
 */
function validateWorkload(obj: KubeObject, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj);
  const selector = spec.selector;
  const labels = spec.template?.metadata?.labels ?? {};
  if (!selector) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector', message: '' });
  } else {
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
      errs.push({ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', badValue: labels, message: '`selector` does not match template `labels`' });
    }
  }
  const restartPolicy = spec.template?.spec?.restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== 'Always') {
    errs.push(fieldNotSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  }
  return errs;
}

/** A workload kind's strategy: validated as kube validates it; in apps/v1 its selector never changes. */
export function workloadStrategy(kind: string, extra: Strategy = {}): Strategy {
  return {
    ...extra,
    validate: (obj) => validateWorkload(obj, kind),
    validateUpdate: (obj, old) => {
      const errs = validateWorkload(obj, kind);
      const selector = specOf(obj).selector;
      if (!isDeepStrictEqual(selector, specOf(old).selector)) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', badValue: selector, message: 'field is immutable' });
      }
      return errs;
    },
  };
}
