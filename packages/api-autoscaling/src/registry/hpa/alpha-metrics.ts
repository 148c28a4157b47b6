// autoscaling/v2 metrics and the autoscaling/v1 alpha types kube keeps them in, in the annotations of a v1 object
// (k8s.io/api/autoscaling/v1 MetricSpec, MetricStatus; pkg/apis/autoscaling/v1/conversion.go's per-source functions).
import { asObj, canonicalQuantity, isObj, str, type Obj } from '@kapi/apimachinery';
import { goInt, goQuantity, goString, goStruct, type Decoder, type GoField } from './go-json.js';
import { selectorFromGo, selectorToGo } from './label-selector.js';

const quantity = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? canonicalQuantity(v) : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** Copies the defined values, in order: Go's omitempty for pointers. */
const defined = (entries: [string, unknown][]): Obj => Object.fromEntries(entries.filter(([, v]) => v !== undefined));

/** A v1 CrossVersionObjectReference as Go writes it (apiVersion omitempty). */
const refToGo = (ref: unknown): Obj => {
  const r = asObj(ref);
  return defined([['kind', str(r.kind)], ['name', str(r.name)], ['apiVersion', str(r.apiVersion) || undefined]]);
};

/** Which source field a metric type fills, in MetricSpec's and MetricStatus's field order. */
const SOURCES = ['object', 'pods', 'resource', 'containerResource', 'external'] as const;
type Source = (typeof SOURCES)[number];

/** `{type, <source>...}` in Go's order, each present source converted. */
function metricToGo(metric: unknown, convert: Record<Source, (source: Obj) => Obj>): Obj {
  const m = asObj(metric);
  const out: Obj = { type: str(m.type) };
  for (const source of SOURCES) if (isObj(m[source])) out[source] = convert[source](m[source]);
  return out;
}

/** A v2 MetricSpec as the v1 alpha MetricSpec Go marshals (Convert_autoscaling_MetricSpec_To_v1_MetricSpec). */
export const metricSpecToGo = (metric: unknown): Obj =>
  metricToGo(metric, {
    object: (s) => {
      const target = asObj(s.target);
      return defined([
        ['target', refToGo(s.describedObject)],
        ['metricName', str(asObj(s.metric).name)],
        ['targetValue', quantity(target.value) ?? '0'],
        ['selector', selectorToGo(asObj(s.metric).selector)],
        ['averageValue', quantity(target.averageValue)],
      ]);
    },
    pods: (s) =>
      defined([
        ['metricName', str(asObj(s.metric).name)],
        ['targetAverageValue', quantity(asObj(s.target).averageValue) ?? '0'],
        ['selector', selectorToGo(asObj(s.metric).selector)],
      ]),
    resource: (s) =>
      defined([
        ['name', str(s.name)],
        ['targetAverageUtilization', int(asObj(s.target).averageUtilization)],
        ['targetAverageValue', quantity(asObj(s.target).averageValue)],
      ]),
    containerResource: (s) =>
      defined([
        ['name', str(s.name)],
        ['targetAverageUtilization', int(asObj(s.target).averageUtilization)],
        ['targetAverageValue', quantity(asObj(s.target).averageValue)],
        ['container', str(s.container)],
      ]),
    external: (s) =>
      defined([
        ['metricName', str(asObj(s.metric).name)],
        ['metricSelector', selectorToGo(asObj(s.metric).selector)],
        ['targetValue', quantity(asObj(s.target).value)],
        ['targetAverageValue', quantity(asObj(s.target).averageValue)],
      ]),
  });

/** A v2 MetricStatus as the v1 alpha MetricStatus Go marshals (Convert_autoscaling_MetricStatus_To_v1_MetricStatus). */
export const metricStatusToGo = (metric: unknown): Obj =>
  metricToGo(metric, {
    object: (s) => {
      const current = asObj(s.current);
      return defined([
        ['target', refToGo(s.describedObject)],
        ['metricName', str(asObj(s.metric).name)],
        ['currentValue', quantity(current.value) ?? '0'],
        ['selector', selectorToGo(asObj(s.metric).selector)],
        ['averageValue', quantity(current.averageValue)],
      ]);
    },
    pods: (s) =>
      defined([
        ['metricName', str(asObj(s.metric).name)],
        ['currentAverageValue', quantity(asObj(s.current).averageValue) ?? '0'],
        ['selector', selectorToGo(asObj(s.metric).selector)],
      ]),
    resource: (s) =>
      defined([
        ['name', str(s.name)],
        ['currentAverageUtilization', int(asObj(s.current).averageUtilization)],
        ['currentAverageValue', quantity(asObj(s.current).averageValue) ?? '0'],
      ]),
    containerResource: (s) =>
      defined([
        ['name', str(s.name)],
        ['currentAverageUtilization', int(asObj(s.current).averageUtilization)],
        ['currentAverageValue', quantity(asObj(s.current).averageValue) ?? '0'],
        ['container', str(s.container)],
      ]),
    external: (s) =>
      defined([
        ['metricName', str(asObj(s.metric).name)],
        ['metricSelector', selectorToGo(asObj(s.metric).selector)],
        ['currentValue', quantity(asObj(s.current).value) ?? '0'],
        ['currentAverageValue', quantity(asObj(s.current).averageValue)],
      ]),
  });

// Reading the annotations back: json.Unmarshal into the v1 alpha types, then kube's conversion to v2.

const text: GoField = { decode: goString, zero: '' };
const q: GoField = { decode: goQuantity, zero: '0' };
const qPtr: GoField = { decode: goQuantity, pointer: true };
const int32Ptr: GoField = { decode: goInt(32), pointer: true };
const selector: GoField = { decode: selectorFromGo, pointer: true };
const ref: GoField = { decode: goStruct({ kind: text, name: text, apiVersion: text }), zero: { kind: '', name: '', apiVersion: '' } };

const refFromGo = (r: unknown): Obj => {
  const { kind, name, apiVersion } = asObj(r);
  return defined([['kind', kind], ['name', name], ['apiVersion', apiVersion || undefined]]);
};
const identifier = (name: unknown, sel: unknown): Obj => defined([['name', name], ['selector', sel]]);

const specSources = {
  object: goStruct({ target: ref, metricName: text, targetValue: q, selector, averageValue: qPtr }),
  pods: goStruct({ metricName: text, targetAverageValue: q, selector }),
  resource: goStruct({ name: text, targetAverageUtilization: int32Ptr, targetAverageValue: qPtr }),
  containerResource: goStruct({ name: text, targetAverageUtilization: int32Ptr, targetAverageValue: qPtr, container: text }),
  external: goStruct({ metricName: text, metricSelector: selector, targetValue: qPtr, targetAverageValue: qPtr }),
};

const statusSources = {
  object: goStruct({ target: ref, metricName: text, currentValue: q, selector, averageValue: qPtr }),
  pods: goStruct({ metricName: text, currentAverageValue: q, selector }),
  resource: goStruct({ name: text, currentAverageUtilization: int32Ptr, currentAverageValue: q }),
  containerResource: goStruct({ name: text, currentAverageUtilization: int32Ptr, currentAverageValue: q, container: text }),
  external: goStruct({ metricName: text, metricSelector: selector, currentValue: q, currentAverageValue: qPtr }),
};

const metricDecoder = (sources: Record<Source, Decoder<Obj>>) =>
  goStruct({ type: text, ...Object.fromEntries(SOURCES.map((s) => [s, { decode: sources[s], pointer: true }])) });

/** The v1 alpha MetricSpec list of the `metrics` annotation, decoded. */
export const decodeMetricSpec = metricDecoder(specSources);
/** The v1 alpha MetricStatus list of the `current-metrics` annotation, decoded. */
export const decodeMetricStatus = metricDecoder(statusSources);

/** `{type, <source>}` in v2 form, each decoded source converted. */
function metricFromGo(m: Obj, convert: Record<Source, (s: Obj) => Obj>): Obj {
  const out: Obj = { type: m.type };
  for (const source of SOURCES) if (m[source] !== undefined) out[source] = convert[source](m[source] as Obj);
  return out;
}

const target = (type: string, value: unknown, averageValue: unknown, averageUtilization?: unknown): Obj =>
  defined([['type', type], ['value', value], ['averageValue', averageValue], ['averageUtilization', averageUtilization]]);

/** A decoded v1 alpha MetricSpec as v2 (Convert_v1_MetricSpec_To_autoscaling_MetricSpec and its sources'). */
export const metricSpecFromGo = (m: Obj): Obj =>
  metricFromGo(m, {
    object: (s) => ({
      describedObject: refFromGo(s.target),
      target: target(s.averageValue === undefined ? 'Value' : 'AverageValue', s.targetValue, s.averageValue),
      metric: identifier(s.metricName, s.selector),
    }),
    pods: (s) => ({ metric: identifier(s.metricName, s.selector), target: target('AverageValue', undefined, s.targetAverageValue) }),
    resource: (s) => ({
      name: s.name,
      target: target(s.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization', undefined, s.targetAverageValue, s.targetAverageUtilization),
    }),
    containerResource: (s) => ({
      name: s.name,
      target: target(s.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization', undefined, s.targetAverageValue, s.targetAverageUtilization),
      container: s.container,
    }),
    external: (s) => ({
      metric: identifier(s.metricName, s.metricSelector),
      target: target(s.targetValue === undefined ? 'AverageValue' : 'Value', s.targetValue, s.targetAverageValue),
    }),
  });

const current = (value: unknown, averageValue: unknown, averageUtilization?: unknown): Obj =>
  defined([['value', value], ['averageValue', averageValue], ['averageUtilization', averageUtilization]]);

/** A decoded v1 alpha MetricStatus as v2 (Convert_v1_MetricStatus_To_autoscaling_MetricStatus and its sources'). */
export const metricStatusFromGo = (m: Obj): Obj =>
  metricFromGo(m, {
    object: (s) => ({ metric: identifier(s.metricName, s.selector), current: current(s.currentValue, s.averageValue), describedObject: refFromGo(s.target) }),
    pods: (s) => ({ metric: identifier(s.metricName, s.selector), current: current(undefined, s.currentAverageValue) }),
    resource: (s) => ({ name: s.name, current: current(undefined, s.currentAverageValue, s.currentAverageUtilization) }),
    containerResource: (s) => ({ name: s.name, current: current(undefined, s.currentAverageValue, s.currentAverageUtilization), container: s.container }),
    external: (s) => ({ metric: identifier(s.metricName, s.metricSelector), current: current(s.currentValue, s.currentAverageValue) }),
  });
