import type { KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

/** Pods start Pending (kube's pod strategy sets the initial status) and DELETE answers with the pod. */
export const podStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  returnDeletedObject: true,
};

export const serviceAccountStrategy: Strategy = { returnDeletedObject: true };
