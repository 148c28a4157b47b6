import { age, at, int, intOrString } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

/** The policy group as a server installs it: the PodDisruptionBudget's table printer. */
export const plugin: GroupPlugin = {
  definition: group,
  printers: {
    PodDisruptionBudget: {
      cells: {
        'Min Available': (obj) => intOrString(at(obj, 'spec.minAvailable')),
        'Max Unavailable': (obj) => intOrString(at(obj, 'spec.maxUnavailable')),
        'Allowed Disruptions': (obj) => int(at(obj, 'status.disruptionsAllowed')),
        Age: age,
      },
    },
  },
};
