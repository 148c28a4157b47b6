// spec.behavior in the `autoscaling.alpha.kubernetes.io/behavior` annotation. kube marshals its internal type there
// (pkg/apis/autoscaling HorizontalPodAutoscalerBehavior, no json tags): Go field names as keys, nil pointers as null.
import { asObj, canonicalQuantity, isObj, type Obj } from '@kapi/apimachinery';
import { goInt, goQuantity, goSlice, goString, goStruct, type GoField } from './go-json.js';

const orNull = (v: unknown): unknown => (v === undefined ? null : v);

function rulesToGo(rules: unknown): Obj | null {
  if (!isObj(rules)) return null;
  const policies = Array.isArray(rules.policies)
    ? rules.policies.map((p) => ({ Type: asObj(p).type ?? '', Value: asObj(p).value ?? 0, PeriodSeconds: asObj(p).periodSeconds ?? 0 }))
    : null;
  const tolerance = rules.tolerance;
  return {
    StabilizationWindowSeconds: orNull(rules.stabilizationWindowSeconds),
    SelectPolicy: orNull(rules.selectPolicy),
    Policies: policies,
    Tolerance: typeof tolerance === 'string' || typeof tolerance === 'number' ? canonicalQuantity(tolerance) : null,
  };
}

/** The internal HorizontalPodAutoscalerBehavior Go marshals for a v2 `spec.behavior`. */
export const behaviorToGo = (behavior: Obj): Obj => ({ ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) });

const int32Ptr: GoField = { decode: goInt(32), pointer: true };
const policy = goStruct({ Type: { decode: goString, zero: '' }, Value: { decode: goInt(32), zero: 0 }, PeriodSeconds: { decode: goInt(32), zero: 0 } });
const rules = goStruct({
  StabilizationWindowSeconds: int32Ptr,
  SelectPolicy: { decode: goString, pointer: true },
  Policies: { decode: goSlice(policy), pointer: true },
  Tolerance: { decode: goQuantity, pointer: true },
});
/** json.Unmarshal into the internal HorizontalPodAutoscalerBehavior. */
export const decodeBehavior = goStruct({ ScaleUp: { decode: rules, pointer: true }, ScaleDown: { decode: rules, pointer: true } });

function rulesFromGo(r: Obj): Obj {
  const out: Obj = {};
  if (r.StabilizationWindowSeconds !== undefined) out.stabilizationWindowSeconds = r.StabilizationWindowSeconds;
  if (r.SelectPolicy !== undefined) out.selectPolicy = r.SelectPolicy;
  // v2's policies is omitempty: an empty list is not written
  const policies = r.Policies as Obj[] | undefined;
  if (policies?.length) out.policies = policies.map((p) => ({ type: p.Type, value: p.Value, periodSeconds: p.PeriodSeconds }));
  if (r.Tolerance !== undefined) out.tolerance = r.Tolerance;
  return out;
}

/** A decoded behavior in v2 form; undefined for the zero behavior, which kube does not move into the spec. */
export function behaviorFromGo(b: Obj): Obj | undefined {
  if (b.ScaleUp === undefined && b.ScaleDown === undefined) return undefined;
  const out: Obj = {};
  if (b.ScaleUp !== undefined) out.scaleUp = rulesFromGo(b.ScaleUp as Obj);
  if (b.ScaleDown !== undefined) out.scaleDown = rulesFromGo(b.ScaleDown as Obj);
  return out;
}
