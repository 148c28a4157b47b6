import type { ClientConfig } from './config.js';
import { ResourceClient, type ResourceType } from './resource.js';
import { Transport } from './transport.js';
import type { KubeObject } from './types.js';

/** A group's resource types by version and plural: what `@kapi/api-<group>/client` exports. */
export type GroupResources = Record<string, Record<string, ResourceType<any>>>;

/** Clients for a group's resources: `apps.v1.deployments`. */
export type GroupClient<G extends GroupResources> = {
  [V in keyof G]: { [R in keyof G[V]]: G[V][R] extends ResourceType<infer T> ? ResourceClient<T & KubeObject> : never };
};

export interface BaseClient {
  readonly transport: Transport;
  /** A client of any resource, by its address: custom resources, or kinds no group package is given for. */
  resource<T extends KubeObject = KubeObject>(type: ResourceType<T>): ResourceClient<T>;
  /** Closes the connections kept open to the server. */
  close(): Promise<void>;
}

export type Client<Groups extends Record<string, GroupResources> = Record<never, never>> = BaseClient & {
  readonly [N in keyof Groups]: GroupClient<Groups[N]>;
};

const RESERVED = new Set(['transport', 'resource', 'close']);

/**
 * A client of one API server, typed by the group packages given:
 *
 * ```ts
 * import { apps } from '@kapi/api-apps/client';
 * import { core } from '@kapi/api-core/client';
 * const client = createClient(loadKubeconfig(), { core, apps });
 * const d = await client.apps.v1.deployments.namespace('shop').get('web');
 * ```
 */
export function createClient<Groups extends Record<string, GroupResources> = Record<never, never>>(
  config: ClientConfig | Transport,
  groups?: Groups,
): Client<Groups> {
  const transport = config instanceof Transport ? config : new Transport(config);
  const client: Record<string, unknown> = {
    transport,
    resource: <T extends KubeObject>(type: ResourceType<T>) => new ResourceClient<T>(transport, type),
    close: () => transport.close(),
  };
  for (const [name, versions] of Object.entries(groups ?? {})) {
    if (RESERVED.has(name)) throw new Error(`a group may not be named "${name}": the client has a member of that name`);
    client[name] = Object.fromEntries(
      Object.entries(versions).map(([version, resources]) => [
        version,
        Object.fromEntries(Object.entries(resources).map(([plural, type]) => [plural, new ResourceClient(transport, type)])),
      ]),
    );
  }
  return client as Client<Groups>;
}
