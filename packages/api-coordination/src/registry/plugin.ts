import { age, at, str } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

/** The coordination group as a server installs it: the Lease's table printer. */
export const plugin: GroupPlugin = {
  definition: group,
  printers: { Lease: { cells: { Holder: (obj) => str(at(obj, 'spec.holderIdentity')), Age: age } } },
};
