import { newForbidden, type StatusError } from '@kapi/apimachinery';
import type { AdmissionAttributes } from './types.js';

/**
 * kube's admission.NewForbidden(a, err): a 403 for the request's resource, naming the object as kube's
 * extractResourceName does (its name, else its generateName, as names are not generated yet).
 */
export function admissionForbidden(attrs: AdmissionAttributes, message: string): StatusError {
  const meta = attrs.object?.metadata;
  const name = (typeof meta?.name === 'string' && meta.name) || (typeof meta?.generateName === 'string' && meta.generateName) || attrs.name;
  return newForbidden({ group: attrs.resource.group, resource: attrs.resource.plural }, name, message);
}
