import { cloneJson, asObjects, fieldForbidden, fieldInvalid, fieldRequired, GoValue, goStringMap, isObj, str, type FieldError, type KubeObject, type Obj } from '@kapi/apimachinery';
import { imageWhitespaceErrors } from './pod-containers.js';
import { semanticallyEqual } from './semantic.js';

// kube 1.33's ValidatePodUpdate (pkg/apis/core/validation) after the pod's own checks: what an update of a pod may
// change (images, a shorter or first active deadline, added tolerations, removed scheduling gates, a grace period of 1
// for a negative one, and a gated pod's added node selectors and node affinity requirements), each refusal with kube's
// message, and the catch-all Forbidden for any other spec change.

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const MAX_INT32 = 2147483647;
const isSet = (v: unknown) => v !== undefined && v !== null;

/** kube's ValidateContainerUpdates: no container added or removed (`stop`), and each image set and unpadded. */
function containerUpdateErrors(now: Obj[], was: Obj[], field: string): { errs: FieldError[]; stop: boolean } {
  if (now.length !== was.length) return { errs: [fieldForbidden(field, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  now.forEach((c, i) => {
    if (!str(c.image)) errs.push(fieldRequired(`${field}[${i}].image`));
    errs.push(...imageWhitespaceErrors(c, `${field}[${i}]`));
  });
  return { errs, stop: false };
}

/** kube's active deadline update rules: set once, then only shortened (`stop` on a refusal, as kube returns there). */
function deadlineErrors(deadline: unknown, before: unknown): { errs: FieldError[]; stop: boolean } {
  const field = 'spec.activeDeadlineSeconds';
  if (isSet(deadline)) {
    const value = Number(deadline);
    if (value < 0 || value > MAX_INT32) return { errs: [fieldInvalid(field, deadline, `must be between 0 and ${MAX_INT32}, inclusive`)], stop: true };
    if (isSet(before) && Number(before) < value) return { errs: [fieldInvalid(field, deadline, 'must be less than or equal to previous value')], stop: true };
    return { errs: [], stop: false };
  }
  return { errs: isSet(before) ? [fieldInvalid(field, 'null', 'must not update from a positive integer to nil value')] : [], stop: false };
}

/** A toleration's fields as kube's struct compares them (absent and empty are the same), but for its seconds. */
const tolerationKey = (t: Obj) => JSON.stringify([str(t.key), str(t.operator), str(t.value), str(t.effect)]);

/** kube's validateOnlyAddedTolerations: every old toleration is still there, its tolerationSeconds alone may change. */
function tolerationErrors(now: Obj[], was: Obj[]): FieldError[] {
  const keys = new Set(now.map(tolerationKey));
  return was.every((t) => keys.has(tolerationKey(t))) ? [] : [fieldForbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
}

/** kube's validateOnlyDeletedSchedulingGates: a gate may be removed, never added. */
function schedulingGateErrors(now: Obj[], was: Obj[]): FieldError[] {
  const old = new Set(was.map((g) => str(g.name)));
  const added = new Map<string, number>();
  now.forEach((g, i) => {
    if (!old.has(str(g.name))) added.set(str(g.name), i);
  });
  return [...added].map(([name, i]) => fieldForbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** kube's validateNodeSelectorTermHasOnlyAdditions: the old term's expressions and fields stay first, unchanged. */
function onlyAdditions(term: Obj, before: Obj): boolean {
  const oldExpressions = asObjects(before.matchExpressions);
  const oldFields = asObjects(before.matchFields);
  const expressions = asObjects(term.matchExpressions);
  const fields = asObjects(term.matchFields);
  if (!oldExpressions.length && !oldFields.length && (expressions.length || fields.length)) return false;
  return semanticallyEqual(expressions.slice(0, oldExpressions.length), oldExpressions) && expressions.length >= oldExpressions.length &&
    semanticallyEqual(fields.slice(0, oldFields.length), oldFields) && fields.length >= oldFields.length;
}

/** kube's validateNodeAffinityMutation: required node selector terms of a gated pod only get requirements added. */
function nodeAffinityErrors(now: unknown, was: unknown): FieldError[] {
  const required = (a: unknown) => (isObj(a) && isObj(a.requiredDuringSchedulingIgnoredDuringExecution) ? a.requiredDuringSchedulingIgnoredDuringExecution : undefined);
  const oldRequired = required(was);
  if (!oldRequired) return [];
  const oldTerms = asObjects(oldRequired.nodeSelectorTerms);
  const newTerms = asObjects(required(now)?.nodeSelectorTerms);
  const at = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
  if (oldTerms.length && oldTerms.length !== newTerms.length) return [fieldInvalid(at, newTerms, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  return oldTerms.flatMap((term, i) => (onlyAdditions(newTerms[i], term) ? [] : [fieldInvalid(`${at}[${i}]`, newTerms[i], 'only additions are allowed (no mutations or deletions)')]));
}

/**
 * A pod still held by scheduling gates may get node selectors and node affinity requirements added: their refusals,
 * and `mutable` with what may change taken back from the old spec.
 */
function gatedPodErrors(mutable: Obj, before: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticallyEqual(mutable.nodeSelector, before.nodeSelector)) {
    const now = isObj(mutable.nodeSelector) ? mutable.nodeSelector : {};
    const was = isObj(before.nodeSelector) ? before.nodeSelector : {};
    if (Object.entries(was).some(([k, v]) => now[k] !== v)) {
      errs.push(fieldInvalid('spec.nodeSelector', new GoValue(goStringMap(now)), 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    }
    mutable.nodeSelector = before.nodeSelector;
  }
  const oldAffinity = isObj(before.affinity) ? before.affinity.nodeAffinity : undefined;
  const affinity = isObj(mutable.affinity) ? mutable.affinity : undefined;
  if (!semanticallyEqual(affinity?.nodeAffinity, oldAffinity)) {
    errs.push(...nodeAffinityErrors(affinity?.nodeAffinity, oldAffinity));
    if (!affinity) mutable.affinity = { nodeAffinity: oldAffinity };
    else if (!isSet(before.affinity) && !isSet(affinity.podAffinity) && !isSet(affinity.podAntiAffinity)) delete mutable.affinity;
    else if (oldAffinity === undefined) delete affinity.nodeAffinity;
    else affinity.nodeAffinity = oldAffinity;
  }
  return errs;
}

/** kube's ValidatePodUpdate after the pod's own checks (`podErrors`). */
export function podUpdateErrors(pod: KubeObject, old: KubeObject, podErrors: FieldError[]): FieldError[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const before = isObj(old.spec) ? old.spec : {};
  const errs = [...podErrors];
  for (const key of ['containers', 'initContainers'] as const) {
    const found = containerUpdateErrors(asObjects(spec[key]), asObjects(before[key]), `spec.${key}`);
    errs.push(...found.errs);
    if (found.stop) return errs;
  }
  const deadline = deadlineErrors(spec.activeDeadlineSeconds, before.activeDeadlineSeconds);
  errs.push(...deadline.errs);
  if (deadline.stop) return errs;
  errs.push(...tolerationErrors(asObjects(spec.tolerations), asObjects(before.tolerations)));
  errs.push(...schedulingGateErrors(asObjects(spec.schedulingGates), asObjects(before.schedulingGates)));
  if (semanticallyEqual(spec, before)) return errs;

  // The spec as it would be with what may change taken from the old one.
  const mutable = cloneJson(spec);
  for (const key of ['containers', 'initContainers'] as const) {
    const was = asObjects(before[key]);
    asObjects(mutable[key]).forEach((c, i) => (c.image = was[i].image));
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (before[key] === undefined) delete mutable[key];
    else mutable[key] = before[key];
  }
  if (typeof before.terminationGracePeriodSeconds === 'number' && before.terminationGracePeriodSeconds < 0 && spec.terminationGracePeriodSeconds === 1) {
    mutable.terminationGracePeriodSeconds = before.terminationGracePeriodSeconds;
  }
  if (asObjects(before.schedulingGates).length) errs.push(...gatedPodErrors(mutable, before));
  if (!semanticallyEqual(mutable, before)) errs.push(fieldForbidden('spec', POD_UPDATE_FORBIDDEN));
  return errs;
}
