import type { Strategy } from '@kapi/apiserver';
import { isObj, type FieldError, type KubeObject } from '@kapi/apimachinery';
import { aliasServiceAccount } from './defaulters.js';
import { mergeMatchLabelKeys } from './pod-affinity.js';
import { podQOS } from './pod-qos.js';
import { podWarnings } from './pod-warnings.js';
import { withEphemeralContainers } from './pod-ephemeral.js';
import { withResizedResources } from './pod-resize.js';
import { preparePodStatusUpdate, validatePodStatusUpdate } from './pod-status.js';
import { validatePodCreate, validatePodEphemeralContainersUpdate, validatePodResize, validatePodUpdate } from './pod-validation.js';

/** How an update through each of the pod's writable subresources is validated (kube's per-subresource strategies). */
const POD_UPDATE_VALIDATION: Record<string, (obj: KubeObject, old: KubeObject) => FieldError[]> = {
  '': validatePodUpdate,
  ephemeralcontainers: validatePodEphemeralContainersUpdate,
  resize: validatePodResize,
  status: validatePodStatusUpdate,
};

/**
 * Pods start Pending with their QoS class (kube's pod strategy sets the initial status, pod-qos.ts), get their
 * affinity terms' matchLabelKeys and mismatchLabelKeys merged into the terms' label selectors, are validated as kube
 * validates them (the main checks: pod-validation.ts; a status update checks no spec, which it cannot change;
 * ephemeral containers are added through their subresource, pod-ephemeral.ts, and containers' cpu and memory are
 * changed through `resize`, pod-resize.ts), get kube's warnings
 * (pod-warnings.ts), and DELETE answers with the pod.
 */
export const podStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    const status: Record<string, unknown> = { phase: 'Pending', qosClass: podQOS(obj) };
    // kube's applySchedulingGatedCondition: a pod held by scheduling gates says so (kubectl shows SchedulingGated).
    if (isObj(obj.spec) && Array.isArray(obj.spec.schedulingGates) && obj.spec.schedulingGates.length) {
      status.conditions = [
        {
          type: 'PodScheduled',
          status: 'False',
          // kube's zero lastProbeTime and lastTransitionTime, which it writes as null, are left out (stored objects
          // of built-in kinds hold no nulls; clients read both the same).
          reason: 'SchedulingGated',
          message: 'Scheduling is blocked due to non-empty scheduling gates',
        },
      ];
    }
    obj.status = status;
    if (isObj(obj.spec)) mergeMatchLabelKeys(obj.spec, obj.metadata?.labels);
  },
  validate: validatePodCreate,
  // The account admission or a webhook named is written back as its deprecated alias too, as kube's conversion does.
  canonicalize: (obj) => {
    if (isObj(obj.spec)) aliasServiceAccount(obj.spec);
  },
  warnings: (obj) => podWarnings(obj),
  validateUpdate: (obj, old, ctx) => (Object.hasOwn(POD_UPDATE_VALIDATION, ctx.subresource) ? POD_UPDATE_VALIDATION[ctx.subresource](obj, old) : []),
  // kubectl debug: ephemeral containers are added through their own subresource only; in-place resize likewise.
  subresourceUpdates: { ephemeralcontainers: withEphemeralContainers, resize: withResizedResources },
  // kube's pod status strategy's PrepareForUpdate (the QoS class kept, fields of gates that are off dropped).
  prepareForStatusUpdate: preparePodStatusUpdate,
  returnDeletedObject: true,
};

export const serviceAccountStrategy: Strategy = { returnDeletedObject: true };
