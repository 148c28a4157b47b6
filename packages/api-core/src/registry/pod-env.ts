import { asObjects, fieldInvalid, fieldRequired, isObj, str, type FieldError, type Obj } from '@kapi/apimachinery';

// A container's environment as kube 1.33 validates it (ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom):
// names, one source per value, one reference per envFrom entry.

const ENV_VAR_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const isEnvVarName = (name: string) => /^[\x20-\x3c\x3e-\x7e]+$/.test(name);
const isSet = (v: unknown) => v !== undefined && v !== null;

const VALUE_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];

/** kube's validateEnvVarValueFrom: exactly one source, and no `value` beside it. */
function valueFromErrors(e: Obj, field: string): FieldError[] {
  if (!isObj(e.valueFrom)) return [];
  const sources = VALUE_SOURCES.filter((s) => isSet((e.valueFrom as Obj)[s])).length;
  if (sources === 0) return [fieldInvalid(field, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`')];
  if (str(e.value) !== '') return [fieldInvalid(field, '', 'may not be specified when `value` is not empty')];
  if (sources > 1) return [fieldInvalid(field, '', 'may not have more than one field specified at a time')];
  return [];
}

/** kube's ValidateEnv: every variable named, its value from at most one source. */
export function validateEnv(env: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(env).forEach((e, i) => {
    const at = `${field}[${i}]`;
    const name = str(e.name);
    if (!name) errs.push(fieldRequired(`${at}.name`));
    else if (!isEnvVarName(name)) errs.push(fieldInvalid(`${at}.name`, name, ENV_VAR_NAME));
    errs.push(...valueFromErrors(e, `${at}.valueFrom`));
  });
  return errs;
}

/** kube's ValidateEnvFrom: a valid prefix, and exactly one of configMapRef and secretRef (reported on the list). */
export function validateEnvFrom(envFrom: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  asObjects(envFrom).forEach((e, i) => {
    const prefix = str(e.prefix);
    if (prefix && !isEnvVarName(prefix)) errs.push(fieldInvalid(`${field}[${i}].prefix`, prefix, ENV_VAR_NAME));
    const sources = ['configMapRef', 'secretRef'].filter((s) => isSet(e[s])).length;
    if (sources === 0) errs.push(fieldInvalid(field, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(fieldInvalid(field, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
