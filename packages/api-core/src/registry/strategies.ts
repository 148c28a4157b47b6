import type { Strategy } from '@kapi/apiserver';
import { isObj, type KubeObject } from '@kapi/apimachinery';
import { mergeMatchLabelKeys } from './pod-affinity.js';
import { podQOS } from './pod-qos.js';
import { podWarnings } from './pod-warnings.js';
import { withEphemeralContainers } from './pod-ephemeral.js';
import { validatePodCreate, validatePodEphemeralContainersUpdate, validatePodUpdate } from './pod-validation.js';

/**
 * Pods start Pending with their QoS class (kube's pod strategy sets the initial status, pod-qos.ts), get their
 * affinity terms' matchLabelKeys and mismatchLabelKeys merged into the terms' label selectors, are validated as kube
 * validates them (the main checks: pod-validation.ts; a status update checks no spec, which it cannot change;
 * ephemeral containers are added through their subresource, pod-ephemeral.ts), get kube's warnings
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
  warnings: (obj) => podWarnings(obj),
  validateUpdate: (obj, old, ctx) =>
    ctx.subresource === 'ephemeralcontainers' ? validatePodEphemeralContainersUpdate(obj, old) : ctx.subresource ? [] : validatePodUpdate(obj, old),
  // kubectl debug: ephemeral containers are added through their own subresource only.
  subresourceUpdates: { ephemeralcontainers: withEphemeralContainers },
  returnDeletedObject: true,
};

export const serviceAccountStrategy: Strategy = { returnDeletedObject: true };
