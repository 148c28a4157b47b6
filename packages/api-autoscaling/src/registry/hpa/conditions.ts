// status.conditions in the `autoscaling.alpha.kubernetes.io/conditions` annotation, as v1 HorizontalPodAutoscalerCondition.
import { isObj, str, type Obj } from '@kapi/apimachinery';
import { goString, goStruct, goTime } from './go-json.js';

/** A v2 condition as the v1 HorizontalPodAutoscalerCondition Go marshals (a zero time is null; reason, message omitempty). */
export function conditionToGo(condition: unknown): Obj {
  const c = isObj(condition) ? condition : {};
  const out: Obj = { type: str(c.type), status: str(c.status), lastTransitionTime: typeof c.lastTransitionTime === 'string' ? c.lastTransitionTime : null };
  if (str(c.reason)) out.reason = c.reason;
  if (str(c.message)) out.message = c.message;
  return out;
}

const text = { decode: goString, zero: '' };
/** json.Unmarshal into a v1 HorizontalPodAutoscalerCondition. */
export const decodeCondition = goStruct({ type: text, status: text, lastTransitionTime: { decode: goTime, pointer: true }, reason: text, message: text });

/** A decoded condition in v2 form (empty reason and message, and the zero time, left out as Go leaves them). */
export function conditionFromGo(c: Obj): Obj {
  const out: Obj = { type: c.type, status: c.status };
  if (c.lastTransitionTime !== undefined) out.lastTransitionTime = c.lastTransitionTime;
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  return out;
}
