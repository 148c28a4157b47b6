export { compareKubeAwareVersions, sortByVersionPriority } from './version-priority.js';
export { servedGroups, groupVersionString, type ServedGroup } from './served.js';
export { apiVersions, apiGroup, apiGroupList, apiResourceList, apiResources, apiResourcesOf, storageVersionHash } from './legacy.js';
export {
  apiGroupDiscovery,
  apiGroupDiscoveryList,
  resourceDiscoveries,
  AGGREGATED_DISCOVERY_GROUP,
  AGGREGATED_DISCOVERY_VERSION,
  AGGREGATED_DISCOVERY_KIND,
} from './aggregated.js';
