import type { KubeObject } from '../meta/object.js';

/** The versions of one kind and how its objects go from one to another (a group plugin's `conversions`). */
export interface KindConversion {
  /** The version objects are stored in (`v1`), in the kind's own group. */
  storageVersion: string;
  /**
   * The full apiVersion objects are stored in when it is another group's (`v1` for events.k8s.io Events, stored as
   * core v1 Events: kube's cohabiting resources, declared with the plugin's `storedAs`); `convert` then converts
   * between the kind's versions and this one. Unset: `<group>/<storageVersion>`.
   */
  storageApiVersion?: string;
  /**
   * The objects in another version (`apiVersion` is `group/version`), in order; must not mutate them, may throw a
   * StatusError. Called on every write (to the storage version) and read (to the version asked for) of objects in
   * another version: a list's items in one call, watch events one by one. May answer asynchronously (a webhook).
   * Field ownership also converts objects to the versions other managers wrote their managedFields in; a version
   * the conversion no longer knows may throw @kapi/apiserver's MissingVersionError there, which drops those
   * managers (as kube does).
   */
  convert(objects: KubeObject[], toApiVersion: string): KubeObject[] | Promise<KubeObject[]>;
}

/**
 * How one version's value becomes another's, as codegen computes it from the two schemas (`conversions.ts`):
 * - `1`: both versions have the very same shape here: a deep copy;
 * - `{ props, preserve, manual }`: an object converted field by field: each field in `props` with its own plan
 *   (fields of the same name and shape), the fields in `preserve` kept in the conversion annotation (no
 *   counterpart), those in `manual` converted by the group's hook; any other field of the source is dropped;
 * - `{ items }`: a list whose elements convert by the plan; `{ values }`: a map whose values do.
 */
export type ConversionPlan =
  | 1
  | { props: Record<string, ConversionPlan>; preserve?: string[]; manual?: string[] }
  | { items: ConversionPlan }
  | { values: ConversionPlan };

/** What a hand-written hook may do besides setting fields of `to`. */
export interface ConversionContext {
  /**
   * Keeps a value of the source object that the target version cannot hold (by its path in the source, list
   * elements by index), in the conversion annotation, so converting back restores it.
   */
  preserve(path: readonly (string | number)[], value: unknown): void;
}

/**
 * A hand-written conversion of the fields codegen cannot convert: `to` arrives with every automatic field set; the
 * hook sets the rest. Must not mutate `from`; may throw a StatusError (a 422 or 400 naming the field).
 */
export type ConversionHook = (from: KubeObject, to: KubeObject, ctx: ConversionContext) => void;

/** One direction between a version and the storage version. */
export interface ConversionStep {
  plan: ConversionPlan;
  hook?: ConversionHook;
}

/** A kind served in several versions, as the generated converters describe it. */
export interface KindConversionSpec {
  /** API group (`""` for core). */
  group: string;
  kind: string;
  storageVersion: string;
  /** Each other version's steps to and from the storage version. */
  versions: Record<string, { toStorage: ConversionStep; fromStorage: ConversionStep }>;
}
