// Validation of CustomResourceDefinition objects, as kube-apiserver validates them
// (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation, kube 1.33).
import type { FieldError } from '@kapi/apimachinery';
import { celLibrary } from '../cel-library.js';
import { schemaNodeChecker } from '../customresource/validator.js';
import type { JSONSchemaProps } from '../schema.js';
import { validateAPIApproval, validatePreserveUnknownFields } from './approval.js';
import { toInternalSpec, toInternalStatus } from './internal.js';
import { validateCRDName, validateNames } from './names.js';
import { updateOptions } from './ratchet.js';
import { CREATE_OPTIONS, validateSpec, validateSpecUpdate } from './spec.js';
import { validateStoredVersions } from './stored-versions.js';
import type { CRD, CRDValidationOptions } from './types.js';
import { semanticEqual } from './json.js';

export type { CRD, CRDValidationOptions, JSONSchema, RuleContext, ValidationRule } from './types.js';

type Meta = { name?: string; generateName?: string; annotations?: Record<string, string> } | undefined;

/**
 * Validates a CustomResourceDefinition on create (kube's ValidateCustomResourceDefinition): the name is
 * `<plural>.<group>`, the spec (group, names, scope, versions, schemas, subresources, printer columns, selectable
 * fields, conversion), status.acceptedNames and status.storedVersions, the API approval of protected groups.
 *
 * Expects what kube's strategy does first: v1 defaults applied (names.singular, names.listKind, conversion None,
 * service port) and status.storedVersions set to the storage version (PrepareForCreate). Generic ObjectMeta
 * checks (the name as a DNS subdomain, labels, ...) are the registry's, not repeated here.
 *
 * Paths name kube's internal fields: a schema, subresources, printer columns or selectable fields identical in all
 * versions are reported under `spec.validation`, `spec.subresources`, `spec.additionalPrinterColumns`,
 * `spec.selectableFields`, as kube reports them; the webhook under `spec.conversion.webhookClientConfig`.
 */
export function validateCustomResourceDefinition(crd: CRD, options: CRDValidationOptions = {}): FieldError[] {
  const spec = toInternalSpec(crd);
  const status = toInternalStatus(crd);
  const meta = crd.metadata as Meta;
  return [
    ...validateCRDName(meta, spec),
    ...validateSpec(spec, CREATE_OPTIONS, options),
    ...validateNames(status.acceptedNames, 'status.acceptedNames'),
    ...validateStoredVersions(status.storedVersions, spec.versions, 'status.storedVersions'),
    ...validateAPIApproval(spec.group, meta?.annotations, null),
    ...validatePreserveUnknownFields(spec.preserveUnknownFields, undefined),
  ];
}

/**
 * Validates an update of a CustomResourceDefinition (kube's ValidateCustomResourceDefinitionUpdate): everything
 * checked on create, with the schema rules an existing object already breaks not enforced anew; spec.group and
 * spec.names.plural never change, spec.scope and spec.names.kind not once the CRD is Established; every version in
 * status.storedVersions stays in spec.versions. Expects status carried over from `old` with the storage version
 * added (kube's PrepareForUpdate). Generic ObjectMeta update checks are the registry's.
 */
export function validateCustomResourceDefinitionUpdate(crd: CRD, old: CRD, options: CRDValidationOptions = {}): FieldError[] {
  const spec = toInternalSpec(crd);
  const status = toInternalStatus(crd);
  const meta = crd.metadata as Meta;
  const oldMeta = old.metadata as Meta;
  return [
    ...validateSpecUpdate(spec, toInternalSpec(old), updateOptions(old), options),
    ...validateNames(status.acceptedNames, 'status.acceptedNames'),
    ...validateStoredVersions(status.storedVersions, spec.versions, 'status.storedVersions'),
    ...validateAPIApproval(spec.group, meta?.annotations, oldMeta?.annotations ?? {}),
    ...validatePreserveUnknownFields(spec.preserveUnknownFields, (old.spec as { preserveUnknownFields?: boolean } | undefined)?.preserveUnknownFields),
  ];
}

/**
 * Validates a write to the status subresource (kube's ValidateUpdateCustomResourceDefinitionStatus):
 * status.acceptedNames. status.storedVersions may drop versions here (storage migration), so it is not checked.
 */
export function validateCustomResourceDefinitionStatus(crd: CRD, _old: CRD): FieldError[] {
  return validateNames(toInternalStatus(crd).acceptedNames, 'status.acceptedNames');
}

/**
 * The CEL compile errors of a CRD's x-kubernetes-validations (kube's compilation at CRD create and update), at
 * kube's paths: `spec.validation.openAPIV3Schema...` when every version has the same schema (kube's internal form),
 * else per version. Only the rules of the nodes in `compiled` count: those kube compiles, as the validation's walk
 * found them (a structural schema with valid defaults, no schema error at the node or below it; see
 * {@link ruleCompilation}). On update, a version whose schema did not change is not held to the per-expression cost
 * limit again.
 */
export function compileCRDRules(crd: CRD, compiled: ReadonlySet<string>, old?: CRD): FieldError[] {
  if (compiled.size === 0) return [];
  const spec = toInternalSpec(crd);
  const oldSpec = old && toInternalSpec(old);
  const oldSchema = (name: string) => oldSpec?.validation?.openAPIV3Schema ?? oldSpec?.versions.find((v) => v.name === name)?.schema?.openAPIV3Schema;
  const targets = spec.validation
    ? [{ schema: spec.validation.openAPIV3Schema, path: 'spec.validation.openAPIV3Schema', unchanged: spec.versions.every((v) => semanticEqual(oldSchema(v.name), spec.validation!.openAPIV3Schema)) }]
    : spec.versions.map((v, i) => ({ schema: v.schema?.openAPIV3Schema, path: `spec.versions[${i}].schema.openAPIV3Schema`, unchanged: semanticEqual(oldSchema(v.name), v.schema?.openAPIV3Schema) }));
  const out: FieldError[] = [];
  for (const { schema, path, unchanged } of targets) {
    if (!schema || ![...compiled].some((node) => node === path || node.startsWith(`${path}.`))) continue;
    const { errors } = celLibrary().compileSchemaRules(schema, { schemaPath: path, suppressPerExpressionCost: !!old && unchanged });
    // An error of a rule names the rule (`<node>.x-kubernetes-validations[i].rule`); the schema's total cost is named
    // at its root.
    out.push(...errors.filter((e) => e.field === path || compiled.has(ruleNode(e.field))));
  }
  return out;
}

/** The schema node whose rule a CEL error names. */
function ruleNode(field: string): string {
  const at = field.lastIndexOf('.x-kubernetes-validations[');
  return at < 0 ? field : field.slice(0, at);
}

/**
 * The hooks that record which schema nodes kube compiles the rules of (the walk asks exactly for those) for
 * {@link compileCRDRules}: the whole schema is compiled there at once, for its total cost.
 */
function ruleCompilation(): { compiled: Set<string>; hooks: Pick<CRDValidationOptions, 'compileRules'> } {
  const compiled = new Set<string>();
  return {
    compiled,
    hooks: {
      compileRules(_schema, path) {
        compiled.add(path);
        return [];
      },
    },
  };
}

/**
 * Each default validated against the schema node that declares it, as custom resources are (kube's
 * ValidateDefaults): its OpenAPI schema, then its CEL rules (only when the schema holds).
 */
const withDefaults = (): CRDValidationOptions => {
  const check = schemaNodeChecker();
  return {
    validateDefault(value, schema, path) {
      const errors = check(value, schema as JSONSchemaProps, path);
      if (errors.length || !JSON.stringify(schema).includes('"x-kubernetes-validations"')) return errors;
      // A rule that does not compile is reported where the default is validated (kube's "rule compile error").
      return celLibrary().compileSchemaRules(schema, { schemaPath: path, isResourceRoot: false }).validator.validate(value, undefined, { path });
    },
  };
};

/** The validation the CRD strategy runs: kube's, then the compilation of its CEL rules. */
export const crdValidation = {
  validate(crd: CRD) {
    const rules = ruleCompilation();
    const errors = validateCustomResourceDefinition(crd, { ...withDefaults(), ...rules.hooks });
    return [...errors, ...compileCRDRules(crd, rules.compiled)];
  },
  validateUpdate(crd: CRD, old: CRD) {
    const rules = ruleCompilation();
    const errors = validateCustomResourceDefinitionUpdate(crd, old, { ...withDefaults(), ...rules.hooks });
    return [...errors, ...compileCRDRules(crd, rules.compiled, old)];
  },
  validateStatus: (crd: CRD, old: CRD) => validateCustomResourceDefinitionStatus(crd, old),
};
