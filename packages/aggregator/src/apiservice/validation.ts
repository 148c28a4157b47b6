// kube-aggregator's ValidateAPIService and ValidateAPIServiceStatus (pkg/apis/apiregistration/validation).
import {
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  isDNS1035Label,
  isDNS1123Subdomain,
  type FieldError,
} from '@kapi/apimachinery';
import type { APIService } from './types.js';

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** Bytes of a base64 value (the length kube reports for a caBundle). */
const decodedLength = (b64: string) => Buffer.from(b64, 'base64').length;

/**
 * The rules of an APIService beyond its schema: its name is `<version>.<group>`, the group a DNS subdomain (empty
 * only for the legacy `v1`), the version a DNS label, priorities in range, and a caBundle or insecureSkipTLSVerify
 * only with a service, never both.
 */
export function validateAPIService(apiService: APIService): FieldError[] {
  const errs: FieldError[] = [];
  const spec = apiService.spec ?? {};
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const required = `${version}.${group}`;
  if (apiService.metadata.name !== required) {
    errs.push(fieldInvalid('metadata.name', apiService.metadata.name, `must be \`spec.version+"."+spec.group\`: "${required}"`));
  }
  if (group === '' && version !== 'v1') errs.push(fieldRequired('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(fieldInvalid('spec.group', group, msg));
  for (const msg of isDNS1035Label(version)) errs.push(fieldInvalid('spec.version', version, msg));
  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(fieldInvalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(fieldInvalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  const caBundle = spec.caBundle ?? '';
  if (!spec.service) {
    if (caBundle.length > 0) errs.push(fieldInvalid('spec.caBundle', `${decodedLength(caBundle)} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errs.push(fieldInvalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (!spec.service.namespace) errs.push(fieldRequired('spec.service.namespace'));
  if (!spec.service.name) errs.push(fieldRequired('spec.service.name'));
  const port = spec.service.port ?? 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(fieldInvalid('spec.service.port', port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (spec.insecureSkipTLSVerify && caBundle.length > 0) errs.push(fieldInvalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** The conditions' statuses are True, False or Unknown. */
export function validateAPIServiceStatus(apiService: APIService): FieldError[] {
  const errs: FieldError[] = [];
  (apiService.status?.conditions ?? []).forEach((condition, i) => {
    if (!CONDITION_STATUSES.includes(condition.status)) errs.push(fieldNotSupported(`status.conditions[${i}].status`, condition.status, CONDITION_STATUSES));
  });
  return errs;
}
