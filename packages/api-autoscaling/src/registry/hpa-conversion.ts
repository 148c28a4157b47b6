// The HorizontalPodAutoscaler's two served versions and the one it is stored in (autoscaling/v2, as kube-apiserver
// 1.33 stores it): the conversion the server calls on every write and read of a v1 object.
import { newBadRequest, orderKeys, type KubeObject } from '@kapi/apimachinery';
import type { KindConversion } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { v1ToV2, v2ToV1 } from './hpa/convert.js';

export { v1ToV2, v2ToV1 } from './hpa/convert.js';

const V1 = 'autoscaling/v1';
const V2 = 'autoscaling/v2';

function convertOne(hpa: KubeObject, toApiVersion: string): KubeObject {
  if (hpa.apiVersion === toApiVersion) return hpa;
  let out: KubeObject;
  if (hpa.apiVersion === V1 && toApiVersion === V2) out = v1ToV2(hpa);
  else if (hpa.apiVersion === V2 && toApiVersion === V1) out = v2ToV1(hpa);
  else throw newBadRequest(`converting HorizontalPodAutoscaler from "${String(hpa.apiVersion)}" to "${toApiVersion}" is not supported`);
  // the field order kube writes (struct order, map keys sorted)
  orderKeys(group.fieldTree, `${toApiVersion}/HorizontalPodAutoscaler`, out);
  return out;
}

/** autoscaling/v1 ⇄ v2 HorizontalPodAutoscalers, stored as v2. Never mutates its inputs. */
export const hpaConversion: KindConversion = {
  storageVersion: 'v2',
  convert: (objects, toApiVersion) => objects.map((o) => convertOne(o, toApiVersion)),
};
