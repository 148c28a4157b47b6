import type { KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { validatePodCreate, validatePodUpdate } from './pod-validation.js';

/**
 * Pods start Pending (kube's pod strategy sets the initial status), are validated as kube validates them (the main
 * checks: pod-validation.ts; a status update checks no spec, which it cannot change), and DELETE answers with the pod.
 */
export const podStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  validate: validatePodCreate,
  validateUpdate: (obj, old, ctx) => (ctx.subresource ? [] : validatePodUpdate(obj, old)),
  returnDeletedObject: true,
};

export const serviceAccountStrategy: Strategy = { returnDeletedObject: true };
