import type { FieldTree, ObjectValidator } from '../validation/types.js';
import type { ProtoDescriptor } from '../wire/types.js';
import type { ResourceInfo } from './types.js';

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
  resources: ResourceInfo[];
  /** Validators by `<apiVersion>/<Name>` (`apps/v1/Deployment`, `v1/Pod`), for kinds and their sub-schemas. */
  validators: Record<string, ObjectValidator>;
  /** Known fields by type key (validators' keys, plus `.Field` suffixes for inline nested types). */
  fieldTree: FieldTree;
  /** Protobuf descriptors of every message the group encodes, self-contained. */
  protobuf: ProtoDescriptor;
}
