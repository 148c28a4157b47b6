import type { KubeObject, ResourceInfo } from '@kapi/apimachinery';

/** Who is making a request (kube's user.Info). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What an admission plugin sees of one request (kube's admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  resource: ResourceInfo;
  subresource: string;
  namespace: string;
  name: string;
  /** The object being written: may be mutated by mutating plugins, never by validating ones. */
  object?: KubeObject;
  /** The stored object an UPDATE or DELETE acts on. */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
}

/**
 * An admission plugin. `mutate` hooks all run, in chain order, before the object is validated and stored;
 * `validate` hooks then run and may only reject. Reject by throwing a StatusError (kube answers 403 Forbidden
 * for admission denials unless the plugin says otherwise).
 */
export interface AdmissionPlugin {
  name: string;
  /**
   * Whether the plugin acts outside the object (like a webhook's sideEffects): `None` or `NoneOnDryRun` plugins
   * run on dry-run requests (NoneOnDryRun ones must honour `attrs.dryRun`); a dry-run request that would reach a
   * plugin with `Some` or `Unknown` side effects fails. Absent means None (in-process plugins).
   */
  sideEffects?: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  /** Operations this plugin handles; absent means all. */
  operations?: AdmissionOperation[];
  mutate?(attrs: AdmissionAttributes): void | Promise<void>;
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}
