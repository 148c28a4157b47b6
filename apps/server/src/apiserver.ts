import { group as apps } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as coordination } from '@kapi/api-coordination';
import { group as core } from '@kapi/api-core';
import { group as policy } from '@kapi/api-policy';
import { group as rbac } from '@kapi/api-rbac';
import { group as wardle } from '@kapi/api-wardle';
import { createApiServer, defaultVersionInfo, groupPlugin, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import type { ServerConfig } from './flags.js';

/** kapi-server's version, set by tsup from package.json. */
declare const __KAPI_SERVER_VERSION__: string | undefined;
const version = typeof __KAPI_SERVER_VERSION__ === 'string' ? __KAPI_SERVER_VERSION__ : '0.0.0';

/** Every group the sample server serves, in discovery order (core first, as kube-apiserver). */
export const GROUPS = [core, apps, autoscaling, policy, coordination, rbac, authorization, authentication, wardle];

/** Composes the API server from the configuration: storage → group plugins → ApiServer. */
export function createKapiApiServer(config: ServerConfig, log: (level: number, message: string) => void): ApiServer {
  // parseFlags admits only the backends that exist ('memory' today).
  const storage = createMemoryBackend();
  return createApiServer({
    storage,
    plugins: GROUPS.map((definition) => groupPlugin(definition)),
    featureGates: config.featureGates,
    version: defaultVersionInfo(version),
    log,
  });
}
