import { ageSince, at, isObj, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { eventConversion } from './conversion.js';

/** When an events.k8s.io Event last happened: its series' last observation, its deprecated last time, its event time. */
function lastSeen(ev: KubeObject, now: number): string {
  if (isObj(at(ev, 'series'))) return ageSince(at(ev, 'series.lastObservedTime'), now);
  return ageSince(at(ev, 'deprecatedLastTimestamp') ?? at(ev, 'eventTime'), now);
}

/** kube prints events.k8s.io Events with core Events' printer (both are one internal type): LAST SEEN ... MESSAGE. */
const event: TablePrinter = {
  cells: {
    'Last Seen': lastSeen,
    Type: (obj) => str(at(obj, 'type')),
    Reason: (obj) => str(at(obj, 'reason')),
    Object: (obj) => {
      const kind = str(at(obj, 'regarding.kind')).toLowerCase();
      const name = str(at(obj, 'regarding.name'));
      return name ? `${kind}/${name}` : kind;
    },
    Message: (obj) => str(at(obj, 'note')).trim(),
  },
};

const text = (path: string) => (obj: KubeObject) => {
  const value = at(obj, path);
  return value === undefined || value === null ? '' : String(value);
};

/**
 * The field-selector labels of events.k8s.io Events: kube's AddFieldLabelConversionsForEvent maps them to core's
 * (`regarding.name` → `involvedObject.name`, `reportingController` → `reportingComponent`); here they read the
 * events.k8s.io form directly (field selectors read objects in the request's version). core's `source` has no
 * events.k8s.io label, as in kube.
 */
const REGARDING = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
export const EVENTS_FIELD_LABELS: Record<string, (obj: KubeObject) => string> = {
  ...Object.fromEntries(REGARDING.map((f) => [`regarding.${f}`, text(`regarding.${f}`)])),
  reason: text('reason'),
  reportingController: text('reportingController'),
  type: text('type'),
};

/**
 * The events.k8s.io group as a server installs it: its Events are core Events (kube's cohabiting resources), stored
 * in core's `events` collection and converted as kube's pkg/apis/events/v1/conversion.go; the Event's table printer
 * and field labels.
 */
export const plugin: GroupPlugin = {
  definition: group,
  printers: { Event: event },
  strategies: { Event: { fieldLabels: EVENTS_FIELD_LABELS } },
  conversions: { Event: eventConversion },
  storedAs: { Event: { group: '', resource: 'events' } },
};
