// spec (validateCustomResourceDefinitionSpec and validateCustomResourceDefinitionSpecUpdate).
import type { FieldError } from '@kapi/apimachinery';
import { validateColumn } from './columns.js';
import { validateConversion } from './conversion.js';
import { isDNS1123Subdomain } from './dns.js';
import { child, forbidden, index, invalid, notSupported, required } from './field.js';
import type { Spec } from './internal.js';
import { has } from './json.js';
import { validateNames, validateRequiredNames } from './names.js';
import { schemaHas } from './schema/nodes.js';
import { validateCustomResourceValidation, type ValidationOptions } from './schema/validation.js';
import { validateSelectableFieldsWithSchema } from './selectable-fields.js';
import { validateSubresources } from './subresources.js';
import type { CRDValidationOptions, JSONSchema } from './types.js';
import { validateVersions } from './versions.js';

/** The per-request options (kube's validationOptions): all strict on create. */
export interface SpecOptions extends ValidationOptions {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  allowInvalidCABundle: boolean;
}

/** The options of a create. */
export const CREATE_OPTIONS: SpecOptions = {
  allowDefaults: true,
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  allowInvalidCABundle: true,
};

/** Every openAPIV3Schema of the spec (spec-level and per-version). */
export function specSchemas(spec: Spec): JSONSchema[] {
  const out: JSONSchema[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

/** validation.HasSchemaWith: whether any schema of the spec has a node where pred holds. */
export const specHasSchemaWith = (spec: Spec, pred: (s: JSONSchema) => boolean): boolean =>
  specSchemas(spec).some((s) => schemaHas(s, pred));

const hasKubernetesExtensions = (s: JSONSchema): boolean =>
  s['x-kubernetes-embedded-resource'] === true ||
  has(s['x-kubernetes-preserve-unknown-fields']) ||
  s['x-kubernetes-int-or-string'] === true ||
  (s['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ||
  has(s['x-kubernetes-list-type']) ||
  (s['x-kubernetes-validations']?.length ?? 0) > 0;

/** The spec on create, or the spec part of an update (see validateSpecUpdate). */
export function validateSpec(spec: Spec, options: SpecOptions, hooks: CRDValidationOptions, fldPath = 'spec'): FieldError[] {
  const opts = { ...options };
  const errs: FieldError[] = [];
  const groupPath = child(fldPath, 'group');
  if (!spec.group) errs.push(required(groupPath));
  else {
    const problems = isDNS1123Subdomain(spec.group);
    if (problems.length > 0) errs.push(invalid(groupPath, spec.group, problems.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalid(groupPath, spec.group, 'should be a domain with at least one dot'));
  }
  const scopes = ['Cluster', 'Namespaced'];
  if (!spec.scope) errs.push(required(child(fldPath, 'scope')));
  else if (!scopes.includes(spec.scope)) errs.push(notSupported(child(fldPath, 'scope'), spec.scope, scopes));

  // pruning (preserveUnknownFields false) requires structural schemas
  if (!spec.preserveUnknownFields) opts.requireStructuralSchema = true;
  const topSchema = spec.validation?.openAPIV3Schema;
  if (opts.requireOpenAPISchema) {
    if (!topSchema) {
      spec.versions.forEach((v, i) => {
        if (!v.schema?.openAPIV3Schema) errs.push(required(child(index(child(fldPath, 'versions'), i), 'schema', 'openAPIV3Schema'), 'schemas are required'));
      });
    }
  } else if (!spec.preserveUnknownFields && !topSchema) {
    spec.versions.forEach((v, i) => {
      if (v.served && !v.schema?.openAPIV3Schema) {
        errs.push(required(child(index(child(fldPath, 'versions'), i), 'schema', 'openAPIV3Schema'), 'because otherwise all fields are pruned'));
      }
    });
  }
  if (opts.allowDefaults && specHasSchemaWith(spec, (s) => has(s.default))) {
    opts.requireStructuralSchema = true;
    if (spec.preserveUnknownFields) errs.push(invalid(child(fldPath, 'preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  if (specHasSchemaWith(spec, hasKubernetesExtensions)) opts.requireStructuralSchema = true;

  errs.push(...validateVersions(spec, opts, hooks, fldPath));

  // unreachable from v1 (converted CRDs never have both), kept as kube has them
  const perVersion = (pred: (v: Spec['versions'][number]) => boolean): boolean => spec.versions.some(pred);
  if (spec.validation && perVersion((v) => v.schema !== undefined)) {
    errs.push(forbidden(child(fldPath, 'validation'), 'top-level and per-version schemas are mutually exclusive'));
  }
  if (spec.subresources && perVersion((v) => v.subresources !== undefined)) {
    errs.push(forbidden(child(fldPath, 'subresources'), 'top-level and per-version subresources are mutually exclusive'));
  }
  if (spec.additionalPrinterColumns?.length && perVersion((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)) {
    errs.push(forbidden(child(fldPath, 'additionalPrinterColumns'), 'top-level and per-version additionalPrinterColumns are mutually exclusive'));
  }

  errs.push(...validateRequiredNames(spec.names, fldPath));
  errs.push(...validateNames(spec.names, child(fldPath, 'names')));
  const anyStatus = has(spec.subresources?.status) || spec.versions.some((v) => has(v.subresources?.status));
  errs.push(...validateCustomResourceValidation(spec.validation, anyStatus, opts, hooks, child(fldPath, 'validation')));
  errs.push(...validateSubresources(spec.subresources, child(fldPath, 'subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, index(child(fldPath, 'additionalPrinterColumns'), i))));
  errs.push(...validateSelectableFieldsWithSchema(spec.selectableFields, spec.validation, false, fldPath));

  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(invalid(child(fldPath, 'conversion', 'strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, opts.allowInvalidCABundle, child(fldPath, 'conversion')));
  return errs;
}

/** The spec on update: as on create, then group and plural never change, scope and kind not once Established. */
export function validateSpecUpdate(spec: Spec, old: Spec, opts: SpecOptions, hooks: CRDValidationOptions, fldPath = 'spec'): FieldError[] {
  const errs = validateSpec(spec, opts, hooks, fldPath);
  const immutable = (value: string | undefined, oldValue: string | undefined, path: string): void => {
    if ((value ?? '') !== (oldValue ?? '')) errs.push(invalid(path, value ?? '', 'field is immutable'));
  };
  if (opts.requireImmutableNames) {
    immutable(spec.scope, old.scope, child(fldPath, 'scope'));
    immutable(spec.names.kind, old.names.kind, child(fldPath, 'names', 'kind'));
  }
  immutable(spec.group, old.group, child(fldPath, 'group'));
  immutable(spec.names.plural, old.names.plural, child(fldPath, 'names', 'plural'));
  return errs;
}
