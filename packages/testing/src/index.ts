import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, x509Authenticator, type ApiServer, type ApiServerOptions, type FetchEnv, type GroupPlugin } from '@kapi/apiserver';
import { serveApiServer, type ServedApiServer } from '@kapi/serve';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { plugin as apiextensions } from '@kapi/apiextensions';
import { useValidatorCache } from './cache-dir.js';
import { testCertificates } from './certificates.js';
import { installCRDs } from './crds.js';

export interface TestServerOptions {
  /** Group plugins served beside the core group (namespaces, config maps, ...): `@kapi/api-apps`' `plugin`, yours. */
  plugins?: GroupPlugin[];
  /** Where objects live: a fresh in-memory store (the default), or a backend of your own. */
  storage?: StorageBackend;
  /** More ApiServer options (admission, authorizers, feature gates, ...); storage and plugins come from above. */
  apiServer?: Omit<Partial<ApiServerOptions>, 'storage' | 'plugins'>;
  /**
   * Serve over HTTPS on a free loopback port and write a kubeconfig any Kubernetes client can use (the default), or
   * only in-process (`false`): no socket, no certificates.
   */
  listen?: boolean;
  /** The port to listen on (a free one by default). */
  port?: number;
  /**
   * CustomResourceDefinitions (apiextensions.k8s.io/v1 objects) to create before the server is handed over; it
   * waits until each is served. The apiextensions plugin is added when `plugins` lacks it.
   */
  crds?: object[];
}

export interface TestServer {
  /** The running ApiServer. */
  apiServer: ApiServer;
  /** `https://127.0.0.1:<port>` when listening. */
  url?: string;
  /** The admin kubeconfig file (user kapi-admin in system:masters) when listening. */
  kubeconfig?: string;
  /** A request to the server in-process, without a socket, as the admin; paths resolve against the server. */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  /** Creates a namespace of a fresh name (`<prefix>-<random>`), to keep a test's objects apart from others'. */
  createNamespace(prefix?: string): Promise<string>;
  /** Stops the server, closes its port and removes its kubeconfig. */
  stop(): Promise<void>;
}

/** The plugins with apiextensions added when CRDs are to be installed and it is missing. */
function withApiextensions(plugins: GroupPlugin[], crds?: object[]): GroupPlugin[] {
  if (!crds?.length || plugins.some((p) => p.definition.group === 'apiextensions.k8s.io')) return plugins;
  return [...plugins, apiextensions];
}

/** Who in-process requests come from: the admin, as the kubeconfig's client certificate says. */
const ADMIN: FetchEnv = { peerCertificate: { subject: { CN: 'kapi-admin', O: ['system:masters'] } } };

/**
 * Starts a real Kapi API server for a test: the core group and `plugins` on a fresh in-memory store, served over
 * HTTPS on a free port with an admin kubeconfig (unless `listen: false`; the CA and certificates are made once per
 * process, see `testCertificates`). Every server is its own: tests may run several side by side.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  useValidatorCache();
  const security = options.listen === false ? undefined : testCertificates();
  security?.catch(() => {}); // awaited below, unless building the server throws first
  const apiServer = createApiServer({
    // The admin's client certificate authenticates; a request without credentials gets 401.
    authenticators: [x509Authenticator()],
    anonymousAuth: false,
    ...options.apiServer,
    storage: options.storage ?? createMemoryBackend(),
    plugins: [createCorePlugin(), ...withApiextensions(options.plugins ?? [], options.crds)],
  });
  let served: ServedApiServer | undefined;
  let dataDir: string | undefined;
  if (options.listen === false) {
    await apiServer.start();
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'kapi-test-server-'));
    try {
      served = await serveApiServer({ apiServer, dataDir, securePort: options.port ?? 'ephemeral', security: await security });
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const base = served?.url ?? 'http://localhost';
  const fetch = async (input: string | Request, init?: RequestInit) =>
    apiServer.fetch(typeof input === 'string' ? new Request(new URL(input, base), init) : input, ADMIN);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (served) await served.close();
      else await apiServer.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    })());
  if (options.crds?.length) {
    try {
      await installCRDs(fetch, options.crds);
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return {
    apiServer,
    url: served?.url,
    kubeconfig: served?.kubeconfig,
    fetch,
    async createNamespace(prefix = 'test') {
      const name = `${prefix}-${randomBytes(4).toString('hex')}`;
      const res = await fetch('/api/v1/namespaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
      });
      if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${await res.text()}`);
      return name;
    },
    stop,
  };
}
