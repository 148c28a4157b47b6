// events.k8s.io/v1 Events are stored as core v1 Events (kube's cohabiting resources: one collection,
// /registry/events/, written through either group). This is kube's pkg/apis/events/v1/conversion.go, between the
// events.k8s.io/v1 form and the stored core/v1 form.
import { cloneJson, newBadRequest, orderKeys, type KubeObject } from '@kapi/apimachinery';
import { group as coreGroup } from '@kapi/api-core';
import type { KindConversion } from '@kapi/apiserver';
import { group } from '../generated/index.js';

export const EVENTS_V1 = 'events.k8s.io/v1';
export const CORE_V1 = 'v1';

/**
 * Field pairs (events.k8s.io/v1 name, core/v1 name) that are one value under two names; every other field of
 * either form (`reason`, `type`, `eventTime`, `series`, `action`, `related`, `reportingInstance`) has the same name
 * and shape in both (events.k8s.io's EventSeries and core's are both `count` + `lastObservedTime`).
 */
const RENAMED: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];
const SAME = ['reason', 'type', 'eventTime', 'series', 'action', 'related', 'reportingInstance'];

function copyFields(from: KubeObject, to: Record<string, unknown>, pairs: readonly (readonly [string, string])[]): void {
  for (const field of ['metadata', ...SAME]) if (from[field] !== undefined) to[field] = cloneJson(from[field]);
  for (const [source, target] of pairs) if (from[source] !== undefined) to[target] = cloneJson(from[source]);
}

/** kube's Convert_v1_Event_To_core_Event (to the stored core/v1 form). Never mutates its input. */
export function eventsToCore(event: KubeObject): KubeObject {
  const out: KubeObject = { kind: 'Event', apiVersion: CORE_V1 };
  copyFields(event, out, RENAMED);
  // core's involvedObject is a struct, not a pointer: Go always writes it (`{}` when regarding was empty)
  out.involvedObject ??= {};
  orderKeys(coreGroup.fieldTree, 'v1/Event', out);
  return out;
}

/** kube's Convert_core_Event_To_v1_Event (from the stored core/v1 form). Never mutates its input. */
export function coreToEvents(event: KubeObject): KubeObject {
  const out: KubeObject = { kind: 'Event', apiVersion: EVENTS_V1 };
  copyFields(event, out, RENAMED.map(([a, b]) => [b, a] as const));
  orderKeys(group.fieldTree, 'events.k8s.io/v1/Event', out);
  return out;
}

function convertOne(event: KubeObject, toApiVersion: string): KubeObject {
  if (event.apiVersion === toApiVersion) return event;
  if (event.apiVersion === EVENTS_V1 && toApiVersion === CORE_V1) return eventsToCore(event);
  if (event.apiVersion === CORE_V1 && toApiVersion === EVENTS_V1) return coreToEvents(event);
  throw newBadRequest(`converting Event from "${String(event.apiVersion)}" to "${toApiVersion}" is not supported`);
}

/** events.k8s.io/v1 ⇄ core/v1 Events, stored as core/v1 (GroupPlugin.storedAs). */
export const eventConversion: KindConversion = {
  storageVersion: 'v1',
  storageApiVersion: CORE_V1,
  convert: (objects, toApiVersion) => objects.map((o) => convertOne(o, toApiVersion)),
};
