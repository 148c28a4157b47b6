import type { KubeObject } from '@kapi/apimachinery';
import type { AdmissionAttributes, AdmissionOperation } from '../admission/types.js';
import { auditAnnotate } from '../audit/context.js';
import { addWarnings, type RequestContext } from './context.js';
import type { DeleteOptions } from './delete.js';

const OPTIONS_KIND: Record<AdmissionOperation, string> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
  CONNECT: '',
};

/**
 * What admission sees of one write (kube's admission.NewAttributesRecord): the request's resource, subresource,
 * namespace, name, user and dry-run flag, the object and the stored one, and its options as the
 * `CreateOptions`/`UpdateOptions`/`DeleteOptions` object a webhook receives.
 */
export function admissionAttributes(
  ctx: RequestContext,
  operation: AdmissionOperation,
  name: string,
  object?: KubeObject,
  oldObject?: KubeObject,
  extraOptions?: object,
): AdmissionAttributes {
  const kind = OPTIONS_KIND[operation];
  const options: Record<string, unknown> = kind ? { kind, apiVersion: 'meta.k8s.io/v1' } : {};
  if (ctx.dryRun) options.dryRun = ['All'];
  Object.assign(options, ctx.options, extraOptions);
  return {
    operation,
    resource: ctx.entry.info,
    subresource: ctx.subresource,
    namespace: ctx.namespace,
    name,
    object,
    oldObject,
    user: ctx.user,
    dryRun: ctx.dryRun,
    options,
    deadline: ctx.deadline,
    warn: (message) => addWarnings(ctx.warnings, [message]),
    annotate: auditAnnotate,
  };
}

/** The DeleteOptions fields a delete's admission sees (what the client sent, not Kapi's own flags). */
export function admissionDeleteOptions(options: DeleteOptions): Record<string, unknown> {
  const { preconditions, gracePeriodSeconds, propagationPolicy, orphanDependents } = options;
  return Object.fromEntries(Object.entries({ preconditions, gracePeriodSeconds, propagationPolicy, orphanDependents }).filter(([, v]) => v !== undefined));
}
