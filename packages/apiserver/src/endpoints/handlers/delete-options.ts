import { decodeProtobufObject, fieldNotSupported, newInvalid, type FieldError } from '@kapi/apimachinery';
import type { DeleteOptions } from '../../registry/delete.js';
import { queryFlag } from '../../registry/list-options.js';
import { auditRequestObject } from '../../audit/context.js';
import { decodeLoose } from '../decode.js';
import type { BodyFormat } from '../negotiate.js';
import { metaCodec } from '../respond.js';

/** DeleteOptions as a DELETE request gives them, with the dry-run flag. */
export type RequestDeleteOptions = DeleteOptions & { dryRun: boolean };

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'];

/** A DELETE body (DeleteOptions) in any of the request formats. */
function decodeDeleteOptions(format: BodyFormat, body: Uint8Array): unknown {
  if (format === 'protobuf') {
    return body.length ? decodeProtobufObject(metaCodec(), 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions', body) : undefined;
  }
  return decodeLoose(format, body);
}

/**
 * DeleteOptions from the body and the query (gracePeriodSeconds, propagationPolicy, orphanDependents, dryRun),
 * validated as kube's ValidateDeleteOptions does (422 Invalid DeleteOptions).
 */
export function parseDeleteOptions(query: URLSearchParams, format: BodyFormat, bodyBytes: Uint8Array): RequestDeleteOptions {
  const body = decodeDeleteOptions(format, bodyBytes);
  if (body !== undefined) auditRequestObject(body);
  const fromBody = (body && typeof body === 'object' ? body : {}) as DeleteOptions & { orphanDependents?: boolean; dryRun?: string[] };
  const options = { ...fromBody, dryRun: false } as RequestDeleteOptions;
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) options.gracePeriodSeconds = Number(grace);
  const policy = query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy;
  // Booleans as kube converts query parameters: only `false` and `0` (any case) are false (the Python client sends `True`).
  const unsafe = queryFlag(query, 'ignoreStoreReadErrorWithClusterBreakingPotential');
  if (unsafe !== undefined) options.ignoreStoreReadErrorWithClusterBreakingPotential = unsafe;
  const orphan = queryFlag(query, 'orphanDependents');
  if (orphan !== undefined) options.orphanDependents = orphan;
  const errs: FieldError[] = [];
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(options.propagationPolicy)) {
    errs.push(fieldNotSupported('propagationPolicy', options.propagationPolicy, PROPAGATION_POLICIES));
  }
  if (options.propagationPolicy !== undefined && options.orphanDependents !== undefined) {
    errs.push({
      type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: options.propagationPolicy,
      message: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  if (options.gracePeriodSeconds !== undefined && !Number.isInteger(options.gracePeriodSeconds)) {
    errs.push({ type: 'FieldValueInvalid', field: 'gracePeriodSeconds', badValue: options.gracePeriodSeconds, message: 'must be an integer' });
  }
  for (const v of fromBody.dryRun ?? []) {
    if (v !== 'All') errs.push(fieldNotSupported('dryRun', v, ['All']));
  }
  if (errs.length) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  options.dryRun = (fromBody.dryRun ?? []).includes('All');
  options.dryRunGiven = (fromBody.dryRun ?? []).length > 0 || query.getAll('dryRun').length > 0;
  return options;
}
