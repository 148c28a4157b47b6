// kube validates the internal CustomResourceDefinition (k8s.io/apiextensions-apiserver pkg/apis/apiextensions), not
// v1: converting v1 moves per-version schema, subresources, printer columns and selectable fields that are identical
// in all versions to spec-level fields, and the webhook conversion fields up one level. Its errors name those
// internal fields: a single-version CRD's schema errors read `spec.validation.openAPIV3Schema...`, its printer
// column errors `spec.additionalPrinterColumns[0]...`. This is that conversion (Convert_v1_* in pkg/apis/apiextensions/v1).
import type { CRD, JSONSchema } from './types.js';
import { has, semanticEqual } from './json.js';

/** spec.names and status.acceptedNames. */
export interface Names {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

/** A CustomResourceValidation: a version's `schema` (or the spec-level one). */
export interface Validation {
  openAPIV3Schema?: JSONSchema;
}

/** The scale subresource's paths. */
export interface Scale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

/** A version's subresources (or the spec-level ones). */
export interface Subresources {
  status?: object;
  scale?: Scale;
}

/** A printer column. */
export interface Column {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

/** A selectable field. */
export interface SelectableField {
  jsonPath?: string;
}

/** A conversion webhook's client config (v1 `spec.conversion.webhook.clientConfig`). */
export interface ClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

/** A version, without the fields the conversion moved to the spec. */
export interface Version {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns?: Column[];
  selectableFields?: SelectableField[];
}

/** The internal CustomResourceConversion: the webhook fields one level up from v1's. */
export interface Conversion {
  strategy: string;
  webhookClientConfig?: ClientConfig;
  conversionReviewVersions?: string[];
}

/** The internal CustomResourceDefinitionSpec. */
export interface Spec {
  group: string;
  names: Names;
  scope: string;
  /** versions[0].name, as the conversion sets it. */
  version: string;
  versions: Version[];
  validation?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns?: Column[];
  selectableFields?: SelectableField[];
  conversion?: Conversion;
  /** v1's bool, always set once converted. */
  preserveUnknownFields: boolean;
}

/** The internal CustomResourceDefinitionStatus. */
export interface Status {
  acceptedNames: Names;
  storedVersions: string[];
  conditions: { type?: string; status?: string }[];
}

type AnySpec = Record<string, any>;

function identical<T>(versions: Version[], get: (v: Version) => T): boolean {
  const first = get(versions[0]);
  return versions.every((v) => semanticEqual(get(v), first));
}

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec. */
export function toInternalSpec(crd: CRD): Spec {
  const spec = (crd.spec ?? {}) as AnySpec;
  const versions: Version[] = ((spec.versions ?? []) as AnySpec[]).map((v) => ({
    name: v.name ?? '',
    served: v.served === true,
    storage: v.storage === true,
    deprecated: v.deprecated === true,
    deprecationWarning: v.deprecationWarning ?? undefined,
    schema: v.schema ?? undefined,
    subresources: v.subresources ?? undefined,
    additionalPrinterColumns: v.additionalPrinterColumns ?? undefined,
    selectableFields: v.selectableFields ?? undefined,
  }));
  const out: Spec = {
    group: spec.group ?? '',
    names: spec.names ?? {},
    scope: spec.scope ?? '',
    version: '',
    versions,
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  if (has(spec.conversion)) {
    const c = spec.conversion as AnySpec;
    out.conversion = { strategy: c.strategy ?? '' };
    if (has(c.webhook)) {
      out.conversion.conversionReviewVersions = c.webhook.conversionReviewVersions ?? undefined;
      if (has(c.webhook.clientConfig)) out.conversion.webhookClientConfig = c.webhook.clientConfig;
    }
  }
  if (versions.length === 0) return out;
  out.version = versions[0].name;
  if (identical(versions, (v) => v.subresources)) {
    out.subresources = versions[0].subresources;
    for (const v of versions) v.subresources = undefined;
  }
  if (identical(versions, (v) => v.schema)) {
    out.validation = versions[0].schema;
    for (const v of versions) v.schema = undefined;
  }
  if (identical(versions, (v) => v.additionalPrinterColumns)) {
    out.additionalPrinterColumns = versions[0].additionalPrinterColumns;
    for (const v of versions) v.additionalPrinterColumns = undefined;
  }
  if (identical(versions, (v) => v.selectableFields)) {
    out.selectableFields = versions[0].selectableFields;
    for (const v of versions) v.selectableFields = undefined;
  }
  return out;
}

/** The internal status. */
export function toInternalStatus(crd: CRD): Status {
  const status = (crd.status ?? {}) as AnySpec;
  return {
    acceptedNames: status.acceptedNames ?? {},
    storedVersions: status.storedVersions ?? [],
    conditions: status.conditions ?? [],
  };
}

/** apiextensions.IsCRDConditionTrue(crd, Established). */
export const isEstablished = (crd: CRD): boolean =>
  toInternalStatus(crd).conditions.some((c) => c.type === 'Established' && c.status === 'True');
