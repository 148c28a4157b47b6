import { plugin as wardle } from '@kapi/api-wardle';
import {
  createApiServer,
  createRestClient,
  defaultVersionInfo,
  delegatingAuthentication,
  delegatingAuthorization,
  loadKubeconfig,
  type ApiServer,
  type LogSink,
} from '@kapi/apiserver';
import type { WardleConfig } from './flags.js';
import { createStorage } from './storage.js';

export { createLogger } from '@kapi/apiserver';

declare const __WARDLE_SERVER_VERSION__: string | undefined;
const version = typeof __WARDLE_SERVER_VERSION__ === 'string' ? __WARDLE_SERVER_VERSION__ : '0.0.0';

/**
 * Composes wardle-server: the wardle.example.com group on its own storage, requests authenticated and authorized by
 * the main server (kube's delegated authentication and authorization). Reads the main server's
 * extension-apiserver-authentication ConfigMap first: rejects when it cannot, so the server does not start blind.
 */
export async function createWardleApiServer(config: WardleConfig, log: LogSink): Promise<ApiServer> {
  const authenticationClient = createRestClient(loadKubeconfig(config.authenticationKubeconfig!));
  const authorizationClient =
    config.authorizationKubeconfig === config.authenticationKubeconfig ? authenticationClient : createRestClient(loadKubeconfig(config.authorizationKubeconfig!));
  let authentication;
  try {
    authentication = await delegatingAuthentication({
      client: authenticationClient,
      onError: (err) => log(0, `unable to refresh the authentication configuration (keeping the last one): ${err.message}`),
    });
  } catch (err) {
    authenticationClient.close();
    authorizationClient.close();
    throw err;
  }
  const storage = await createStorage(config, log);
  const apiServer = createApiServer({
    storage,
    plugins: [wardle],
    version: defaultVersionInfo(version),
    log,
    authenticators: authentication.authenticators,
    // kube's delegated authentication default: requests without credentials are system:anonymous, which the main
    // server's SubjectAccessReview then authorizes (or not).
    anonymousAuth: true,
    authorizers: delegatingAuthorization({ client: authorizationClient }),
  });
  return {
    ...apiServer,
    async stop() {
      authentication.config.stop();
      await apiServer.stop();
      authenticationClient.close();
      authorizationClient.close();
    },
  };
}
