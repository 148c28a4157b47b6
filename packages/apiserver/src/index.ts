// Public API of @kapi/apiserver.
export { createApiServer, ANONYMOUS, SYSTEM_NAMESPACES, type ApiServer, type ApiServerOptions } from './server.js';
export { groupPlugin, type GroupPlugin, type Strategy } from './plugin.js';
export { defaultVersionInfo, KUBE_API_LEVEL, type VersionInfo } from './version.js';
export { createAdmissionChain, type AdmissionChain } from './admission/chain.js';
export type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin, UserInfo } from './admission/types.js';
