import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import { at, fieldInvalid, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';
import type { CelValidator } from '@kapi/cel';
import { celLibrary } from '../cel-library.js';

/**
 * The CEL validator of each served version with rules, by apiVersion, compiled on first use: installing a CRD with
 * many rules costs nothing until its resources are written. (The CRD's rules were checked when it was written.)
 */
function celValidators(crd: CustomResourceDefinition): (apiVersion: unknown) => CelValidator | undefined {
  const compiled = new Map<string, CelValidator | undefined>();
  const schemas = new Map(crd.spec.versions.map((v) => [`${crd.spec.group}/${v.name}`, v.schema?.openAPIV3Schema as object | undefined]));
  return (apiVersion) => {
    const key = String(apiVersion);
    if (!compiled.has(key)) {
      const schema = schemas.get(key);
      compiled.set(key, schema && JSON.stringify(schema).includes('"x-kubernetes-validations"') ? celLibrary().compileSchemaRules(schema).validator : undefined);
    }
    return compiled.get(key);
  };
}

/** Errors of kinds kube's hasBlockingErr counts: with one of them, the CEL rules are not run. */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * The CEL rules' errors, unless the metadata or schema checks already found an error that blocks them (a wrong type, a
 * missing field, a value not among the enum or too long): rules would then run on values they were not written for, and
 * kube reports that it did not run them instead.
 */
function celErrors(validator: CelValidator | undefined, obj: KubeObject, old: KubeObject | undefined, found: readonly FieldError[] = []): FieldError[] {
  if (!validator) return [];
  if (found.some((e) => BLOCKING.has(e.type))) {
    return [fieldInvalid('<nil>', 'null', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  }
  return validator.validate(obj, old);
}

/**
 * How custom resources of a CRD are written (kube's customResourceStrategy): generation on every object (bumped
 * when anything but metadata changes, and status when the version has its subresource), status by its subresource when the version enables it (the
 * Store's rules for kinds with a status subresource), field selectors over the CRD's selectableFields, and the
 * versions' CEL validation rules.
 */
export function customResourceStrategy(crd: CustomResourceDefinition, options: { refuseCreate?: () => Error } = {}): Strategy {
  const rules = celValidators(crd);
  const fieldLabels: Record<string, (obj: KubeObject) => string> = {};
  for (const version of crd.spec.versions) {
    for (const field of version.selectableFields ?? []) {
      // The value at the field's JSONPath (`.spec.color`), as a field selector compares it.
      const path = field.jsonPath.replace(/^\./, '');
      fieldLabels[path] = (obj) => {
        const value = at(obj, path);
        return value === undefined || value === null ? '' : String(value);
      };
    }
  }
  const strategy: Strategy = {
    tracksGeneration: true,
    // kube's customResourceStrategy: a PUT neither creates a custom resource nor overwrites one without its
    // resourceVersion.
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    fieldLabels,
    // The version's x-kubernetes-validations (CEL), on the object as written (defaults applied); on update with the old
    // object, for transition rules and ratcheting (errors at values the update left alone are not held against it).
    validate: (obj, found) => celErrors(rules(obj.apiVersion), obj, undefined, found),
    validateUpdate: (obj, old, _ctx, found) => celErrors(rules(obj.apiVersion), obj, old, found),
    // Schema errors and the rules' errors are separate checks: both are reported, even at one field.
    independentSchemaErrors: true,
  };
  if (options.refuseCreate) {
    const refuse = options.refuseCreate;
    strategy.prepareForCreate = () => {
      throw refuse();
    };
  }
  return strategy;
}
