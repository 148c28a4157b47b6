import type { GroupPlugin } from '@kapi/apiserver';
import { createConversions, group } from '../generated/index.js';
import { hooks } from './conversion.js';

/** The wardle group as a server installs it: Flunder is served in v1alpha1 and v1beta1, stored in v1beta1. */
export const plugin: GroupPlugin = { definition: group, conversions: createConversions(hooks) };
