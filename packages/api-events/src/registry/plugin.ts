import { ageSince, at, isObj, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

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

/** The events.k8s.io group as a server installs it: the Event's table printer. */
export const plugin: GroupPlugin = { definition: group, printers: { Event: event } };
