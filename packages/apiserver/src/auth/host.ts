import type { AdmissionPlugin, UserInfo } from '../admission/types.js';
import type { RequestContext } from '../registry/context.js';
import type { ResourceEntry, ResourceRegistry } from '../registry/resources.js';
import type { Store } from '../registry/store.js';
import type { Authorizer } from './types.js';

/** What createApiServer lends an authorizer that reads the server's own objects (RBAC's roles and bindings). */
export interface AuthorizerHost {
  store: Store;
  registry: ResourceRegistry;
  /** The privileged user the server's own reads and writes run as. */
  systemUser: UserInfo;
  /**
   * A request context for the server's own reads and writes of `entry` as `systemUser`: cluster-wide (or in
   * `namespace`), on the main resource (or `subresource`), not a dry run unless asked.
   */
  systemContext(entry: ResourceEntry, options?: { namespace?: string; subresource?: string; dryRun?: boolean }): RequestContext;
  /** Runs `hook` in `start()`, after the system namespaces exist and before the server is ready. */
  onStart(hook: () => Promise<void>): void;
  /** Adds an admission plugin the mode needs (RBAC's escalation prevention), after the server's own ones. */
  addAdmission(plugin: AdmissionPlugin): void;
}

/** An authorization mode built by the server it authorizes for; called once, in createApiServer. */
export type AuthorizerFactory = (host: AuthorizerHost) => Authorizer;
