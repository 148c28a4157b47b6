import { checkDeadline, type AdmissionAttributes, type ApiServerMetrics, type WebhookClient } from '@kapi/apiserver';
import { newInternalError } from '@kapi/apimachinery';
import type { NamespaceGetter } from '../match/index.js';
import { CallingWebhookError } from './call.js';
import { shouldCallHook, VersionedObjects, type ConversionHost } from './invocation.js';
import { observeWebhook } from './metrics.js';
import type { Invocation } from './review.js';
import type { Webhook } from './types.js';

/** What a dispatcher needs from the server. */
export interface DispatchDeps {
  client: WebhookClient;
  host: ConversionHost;
  getNamespace: NamespaceGetter;
  metrics?: Pick<ApiServerMetrics, 'webhookAdmission' | 'webhookRequests' | 'webhookRejections' | 'webhookFailOpen'>;
}

/**
 * kube's IsExemptAdmissionConfigurationResource: webhook configurations and admission policies and bindings are
 * never sent to webhooks (or judged by policies), so a broken webhook cannot lock its own configuration.
 */
export const exemptFromAdmission = (attrs: AdmissionAttributes) =>
  attrs.resource.group === 'admissionregistration.k8s.io' &&
  ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].includes(attrs.resource.kind);

/**
 * Runs one webhook call with its failure policy (kube's dispatchers): a call that fails with failurePolicy
 * Ignore is skipped (`failed-open` audit annotation, fail-open metric); with Fail it is a 500 naming the webhook.
 * A denial or any other error is thrown as it is. Resolves with the call's result, or undefined when it failed open.
 */
export async function withFailurePolicy<T>(
  deps: DispatchDeps,
  hook: Webhook,
  attrs: AdmissionAttributes,
  annotationKey: string,
  call: () => Promise<T>,
): Promise<T | undefined> {
  const started = performance.now();
  checkDeadline(attrs);
  try {
    const result = await call();
    observeWebhook(deps.metrics, hook, attrs, started, {});
    return result;
  } catch (err) {
    // The request timed out: it ends here, whatever the webhook's failure policy (kube's ctx.Done()).
    checkDeadline(attrs);
    if (err instanceof CallingWebhookError && hook.failurePolicy === 'Ignore') {
      observeWebhook(deps.metrics, hook, attrs, started, { error: err, failedOpen: true });
      attrs.annotate(annotationKey, hook.name);
      return undefined;
    }
    observeWebhook(deps.metrics, hook, attrs, started, { error: err });
    if (err instanceof CallingWebhookError) throw newInternalError(err.message);
    throw err;
  }
}


/** The webhooks of `hooks` that apply to the request, with where each is invoked, in order. */
export async function* invocations(
  hooks: readonly Webhook[],
  attrs: AdmissionAttributes,
  versions: VersionedObjects,
  deps: DispatchDeps,
): AsyncGenerator<{ hook: Webhook; invocation: Invocation }> {
  for (const hook of hooks) {
    checkDeadline(attrs);
    const invocation = await shouldCallHook(hook, attrs, versions, deps.host, deps.getNamespace);
    if (invocation) yield { hook, invocation };
  }
}
