import type { AdmissionAttributes } from '@kapi/apiserver';
import { callWebhook, rejection } from './call.js';
import { exemptFromAdmission, invocations, withFailurePolicy, type DispatchDeps } from './dispatch.js';
import { VersionedObjects } from './invocation.js';
import type { Webhook } from './types.js';

/** kube's prefix of the audit annotation a validating webhook that failed open leaves. */
const FAILED_OPEN = 'failed-open.validating.webhook.admission.k8s.io/';

/**
 * kube's validating webhook dispatcher: every webhook that applies is called at once; the request goes on only
 * when all allow it. The first denial or failure (in webhook order) is the answer.
 */
export async function dispatchValidating(hooks: readonly Webhook[], attrs: AdmissionAttributes, deps: DispatchDeps): Promise<void> {
  if (hooks.length === 0 || exemptFromAdmission(attrs)) return;
  const versions = new VersionedObjects(attrs, deps.host);
  const calls: Promise<unknown>[] = [];
  try {
    for await (const { hook, invocation } of invocations(hooks, attrs, versions, deps)) {
      calls.push(
        withFailurePolicy(deps, hook, attrs, `${FAILED_OPEN}round_0_index_${hook.index}`, async () => {
          const response = await callWebhook(deps.client, hook, attrs, invocation);
          if (!response.allowed) throw rejection(hook.name, response.result);
        }),
      );
    }
  } finally {
    // A webhook that cannot be matched ends the request, but not before the calls already made are settled.
    if (calls.length) await Promise.allSettled(calls);
  }
  const results = await Promise.allSettled(calls);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export type { Webhook };
