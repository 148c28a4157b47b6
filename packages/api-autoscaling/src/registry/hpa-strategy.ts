// The HorizontalPodAutoscaler's strategy for both served versions (kube's pkg/registry/autoscaling/horizontalpodautoscaler
// works on the internal type: what a v1 object's annotations carry is part of its spec or status there).
import { cloneJson, isObj, type KubeObject, type Obj } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { hpaConversion } from './hpa-conversion.js';
import { CONDITIONS, METRIC_STATUSES, dropRoundTrip } from './hpa/annotations.js';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate } from './hpa/validation.js';

const STATUS_ANNOTATIONS = [METRIC_STATUSES, CONDITIONS];
const isV1 = (hpa: KubeObject) => hpa.apiVersion === 'autoscaling/v1';
const metadataOf = (hpa: KubeObject): Obj => (hpa.metadata ??= {}) as Obj;

function setAnnotations(hpa: KubeObject, annotations: Obj | undefined): void {
  const meta = metadataOf(hpa);
  if (annotations && Object.keys(annotations).length) meta.annotations = annotations;
  else delete meta.annotations;
}

/** Copies `from`'s status annotations onto `hpa` (none where `from` has none): a v1 object's status lives there too. */
function keepStatusAnnotations(hpa: KubeObject, from: KubeObject | undefined): void {
  const annotations: Obj = { ...(metadataOf(hpa).annotations as Obj | undefined) };
  const source = (from && isObj(from.metadata) && isObj(from.metadata.annotations) ? from.metadata.annotations : {}) as Obj;
  for (const key of STATUS_ANNOTATIONS) {
    if (Object.hasOwn(source, key)) annotations[key] = source[key];
    else delete annotations[key];
  }
  setAnnotations(hpa, annotations);
}

/** A v2 object carries no round-trip annotation (kube drops them converting v2 to internal). */
const dropFromV2 = (hpa: KubeObject) => {
  if (!isV1(hpa)) setAnnotations(hpa, dropRoundTrip(metadataOf(hpa).annotations as Obj | undefined));
};

/**
 * kube's dropDisabledFields with HPAConfigurableTolerance off (1.33's default): `tolerance` of the scaling rules is
 * dropped unless the old object already uses it.
 */
function dropTolerance(hpa: KubeObject, old?: KubeObject): void {
  const rules = (o: KubeObject | undefined) => {
    const behavior = isObj(o?.spec) && isObj(o.spec.behavior) ? o.spec.behavior : undefined;
    return [behavior?.scaleUp, behavior?.scaleDown].filter(isObj);
  };
  if (rules(old).some((r) => r.tolerance !== undefined)) return;
  for (const r of rules(hpa)) delete r.tolerance;
}

/** A JSON value as text with every object's keys sorted: equal texts, equal values. */
const canonicalText = (v: unknown): string =>
  JSON.stringify(v, (_k, value: unknown) => (isObj(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value));

/** The v2 spec a v1 object stands for, as text (conversion output has a fixed key order). */
const v2Spec = (hpa: KubeObject): string => JSON.stringify((hpaConversion.convert([hpa], 'autoscaling/v2') as KubeObject[])[0]!.spec);

/** The object as kube validates it: its internal, v2-shaped form (a v1 object converted, its annotations read). */
const asV2 = (hpa: KubeObject): KubeObject => (isV1(hpa) ? (hpaConversion.convert([hpa], 'autoscaling/v2') as KubeObject[])[0]! : hpa);

export const hpaStrategy: Strategy = {
  /** kube's PrepareForCreate: the status is the empty one, whatever a v1 object's annotations say of it. */
  prepareForCreate(hpa) {
    const initial = group.fieldTree.types[`${hpa.apiVersion}/HorizontalPodAutoscaler`]?.defaults?.status;
    hpa.status = cloneJson(initial ?? {});
    if (isV1(hpa)) keepStatusAnnotations(hpa, undefined);
    dropFromV2(hpa);
    dropTolerance(hpa);
  },
  /**
   * kube's PrepareForUpdate keeps the old status: for v1, its annotations too. A change of the spec a v1 object's
   * annotations alone carry (metrics, behavior) is a change of the spec: it bumps the generation.
   */
  prepareForUpdate(hpa, old) {
    if (isV1(hpa)) {
      keepStatusAnnotations(hpa, old);
      const meta = metadataOf(hpa);
      if (typeof meta.generation === 'number' && canonicalText(hpa.spec) === canonicalText(old.spec) && v2Spec(hpa) !== v2Spec(old)) meta.generation += 1;
    }
    dropFromV2(hpa);
    dropTolerance(hpa, old);
  },
  /** kube's ValidateHorizontalPodAutoscaler on the v2 form: field paths are v2's, whichever version was sent. */
  validate: (hpa) => validateHorizontalPodAutoscaler(asV2(hpa)),
  /** ValidateHorizontalPodAutoscalerUpdate, or ValidateHorizontalPodAutoscalerStatusUpdate for the status subresource. */
  validateUpdate(hpa, old, ctx) {
    if (ctx.subresource === 'status') return validateHorizontalPodAutoscalerStatusUpdate(asV2(hpa));
    return validateHorizontalPodAutoscalerUpdate(asV2(hpa), asV2(old));
  },
};
