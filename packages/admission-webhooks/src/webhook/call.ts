import { randomUUID } from 'node:crypto';
import type { AdmissionAttributes, WebhookClient } from '@kapi/apiserver';
import { deadlineExceeded, WebhookCallError } from '@kapi/apiserver';
import { newBadRequest, StatusError } from '@kapi/apimachinery';
import { admissionRequest, admissionReview, reviewVersionOf, verifyAdmissionResponse, type AdmissionResponse, type Invocation } from './review.js';
import type { Webhook } from './types.js';

/**
 * A webhook that could not be asked (kube's ErrCallingWebhook): unreachable, past its timeout, or answering
 * something that is not an AdmissionReview. Its failurePolicy decides: Ignore goes on, Fail answers 500 with
 * `failed calling webhook "<name>": <reason>`.
 */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhook: string,
    readonly reason: string,
    /** The HTTP code kube's metrics record for the failure. */
    readonly code: number,
  ) {
    super(`failed calling webhook "${webhook}": ${reason}`);
  }
}

/** kube's answer to a dry-run request reaching a webhook with side effects (400). */
export const dryRunUnsupported = (webhook: string) => newBadRequest(`admission webhook "${webhook}" does not support dry run`);

/**
 * Calls one webhook for a request (kube's callHook / callAttrMutatingHook up to the response): refuses dry run
 * for webhooks with side effects, sends the AdmissionReview of the first version the webhook accepts within its
 * timeout, and checks the answer. The webhook's warnings and audit annotations are recorded on the request.
 */
export async function callWebhook(client: WebhookClient, hook: Webhook, attrs: AdmissionAttributes, invocation: Invocation): Promise<AdmissionResponse> {
  if (attrs.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
  const version = reviewVersionOf(hook.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400);
  const uid = randomUUID();
  // The webhook's own timeout, or what is left of the request's (kube derives the call's context from the request's).
  const left = attrs.deadline ? attrs.deadline.at - Date.now() : Infinity;
  const timeoutMs = Math.min(hook.timeoutSeconds * 1000, left);
  let answer: unknown;
  try {
    if (timeoutMs <= 0) throw new WebhookCallError('context deadline exceeded', 'timeout');
    answer = await client.post(hook.clientConfig, admissionReview(version, admissionRequest(uid, attrs, invocation)), timeoutMs, attrs.deadline?.signal);
  } catch (err) {
    // Cut short by the request's own deadline rather than the webhook's timeout: the request is over (kube's call
    // shares the request's context, so the write after it fails too), whatever the failure policy says.
    if (attrs.deadline && timeoutMs === left && err instanceof WebhookCallError && err.kind === 'timeout') throw deadlineExceeded(attrs.deadline);
    const code = err instanceof WebhookCallError && err.statusCode ? err.statusCode : 503;
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${(err as Error).message}`, code);
  }
  let response: AdmissionResponse;
  try {
    response = verifyAdmissionResponse(uid, version, hook.type === 'mutating', answer);
  } catch (err) {
    throw new CallingWebhookError(hook.name, `received invalid webhook response: ${(err as Error).message}`, 503);
  }
  for (const [key, value] of Object.entries(response.auditAnnotations)) attrs.annotate(`${hook.name}/${key}`, value);
  for (const warning of response.warnings) attrs.warn(warning);
  return response;
}

/**
 * kube's ToStatusErr: a webhook's denial as the client sees it — the webhook's code (400 when it gave none or one
 * below 400), reason and details, the message prefixed with `admission webhook "<name>" denied the request`.
 */
export function rejection(webhook: string, result: AdmissionResponse['result']): StatusError {
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const r = result ?? {};
  // kube raises a code below 400 to 400 and keeps the rest; one above 599 (which a fetch Response cannot carry) is 400 too.
  const code = typeof r.code === 'number' && r.code >= 400 && r.code <= 599 ? r.code : 400;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(typeof r.reason === 'string' && r.reason ? { reason: r.reason as never } : {}),
    ...(r.details && typeof r.details === 'object' ? { details: r.details as never } : {}),
    code,
  });
}
