import type { FieldTree, ObjectValidator } from '../validation/types.js';
import type { ProtoDescriptor } from '../wire/types.js';
import type { KindConversion } from '../conversion/types.js';
import type { ResourceInfo } from './types.js';

/**
 * OpenAPI v3 component schemas by kube definition name (`io.k8s.api.apps.v1.Deployment`), covering every type a
 * group's REST paths use, meta types included; `$ref`s point into `#/components/schemas/`.
 */
export interface GroupOpenAPI {
  schemas: Record<string, object>;
}

/**
 * An API group as a generated package exports it (`import { group } from '@kapi/api-apps'`): everything a server
 * needs to serve its resources. Generated from `schemas/<folder>/`; never written by hand.
 */
export interface GroupDefinition {
  /** API group name; `""` for the legacy core group. */
  group: string;
  /** npm package the definition comes from. */
  packageName: string;
  /** Versions served, sorted. */
  versions: string[];
  /** Whether the kinds accept strategic merge patches (built-in groups); others answer them with 415. */
  strategicMergePatch?: boolean;
  resources: ResourceInfo[];
  /** Validators by `<apiVersion>/<Name>` (`apps/v1/Deployment`, `v1/Pod`), for kinds and their sub-schemas. */
  validators: Record<string, ObjectValidator>;
  /**
   * The same keys checking only the types of values (what decoding into Go structs refuses), for the decode step;
   * `validators` then validate everything once. Absent in older groups: `validators` serve both.
   */
  typeValidators?: Record<string, ObjectValidator>;
  /** Known fields by type key (validators' keys, plus `.Field` suffixes for inline nested types). */
  fieldTree: FieldTree;
  /** Protobuf descriptors of every message the group encodes, self-contained. */
  protobuf: ProtoDescriptor;
  /** OpenAPI schemas the server's /openapi/v2 and /openapi/v3 documents are built from (absent in older groups). */
  openapi?: GroupOpenAPI;
  /**
   * How the kinds served in several versions convert between them, by kind, when codegen could convert every field
   * (`generated/conversions.ts`); a group with hand-written conversion hooks has its plugin supply them instead.
   */
  conversions?: Record<string, KindConversion>;
}
