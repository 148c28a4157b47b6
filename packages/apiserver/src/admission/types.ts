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
  /**
   * The kind of `object` when it is not the resource's own: a subresource that takes another kind (pods/eviction
   * takes a policy/v1 Eviction, pods/binding a v1 Binding). Absent: the resource's kind.
   */
  kind?: { group: string; version: string; kind: string };
  subresource: string;
  namespace: string;
  name: string;
  /** The object being written: may be mutated by mutating plugins, never by validating ones. */
  object?: KubeObject;
  /** The stored object an UPDATE or DELETE acts on. */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /**
   * The request's options as kube's admission sees them: a CreateOptions, UpdateOptions or DeleteOptions object
   * (`kind`, `apiVersion: meta.k8s.io/v1`, `dryRun`, `fieldManager`, `fieldValidation`, or the DeleteOptions sent).
   */
  options: Record<string, unknown>;
  /**
   * When the request times out, if it can (webhooks are given the time left and a call still running then is
   * abandoned); undefined for the server's own writes.
   */
  deadline?: { at: number; signal: AbortSignal };
  /** Adds a warning to the response (a `Warning: 299` header), once per text. */
  warn(message: string): void;
  /** Records an annotation on the request's audit event (a webhook's or policy's audit annotations). */
  annotate(key: string, value: string): void;
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
  /**
   * `dynamic` plugins (webhooks and policies configured through the API) run after every in-process plugin, as
   * kube's chain ends with MutatingAdmissionWebhook, ValidatingAdmissionPolicy and ValidatingAdmissionWebhook;
   * among themselves, in the order they were added.
   */
  stage?: 'dynamic';
  /** Operations this plugin handles; absent means all. */
  operations?: AdmissionOperation[];
  /**
   * Whether the plugin has anything to do with a request it handles (its kind, whether anything is configured),
   * answered at once. When false, its `mutate` and `validate` are not called, as if they returned at once; the
   * chain still counts and times the step, as kube's plugins are called and return. Absent means always.
   */
  matches?(attrs: AdmissionAttributes): boolean;
  mutate?(attrs: AdmissionAttributes): void | Promise<void>;
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}
