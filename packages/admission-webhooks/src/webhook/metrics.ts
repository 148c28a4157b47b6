import type { AdmissionAttributes, ApiServerMetrics } from '@kapi/apiserver';
import { CallingWebhookError } from './call.js';
import type { Webhook } from './types.js';

type WebhookMetrics = Pick<ApiServerMetrics, 'webhookAdmission' | 'webhookRequests' | 'webhookRejections' | 'webhookFailOpen'>;

const typeLabel = (hook: Webhook) => (hook.type === 'mutating' ? 'admit' : 'validating');
const truncate = (code: number) => String(Math.min(code, 600));

/**
 * Records one webhook call in kube's admission webhook metrics: its latency, the request by code, and a
 * rejection by error type (`calling_webhook_error` when it failed closed, `no_error` when it denied,
 * `apiserver_internal_error` otherwise).
 */
export function observeWebhook(metrics: WebhookMetrics | undefined, hook: Webhook, attrs: AdmissionAttributes, started: number, outcome: { error?: unknown; failedOpen?: boolean }): void {
  if (!metrics) return;
  const { error, failedOpen } = outcome;
  const type = typeLabel(hook);
  const rejected = !!error && !failedOpen;
  const code = !error ? 200 : error instanceof CallingWebhookError ? error.code : ((error as { status?: { code?: number } }).status?.code ?? 0);
  metrics.webhookAdmission.record((performance.now() - started) / 1000, hook.name, type, attrs.operation, String(rejected));
  metrics.webhookRequests.add(hook.name, type, attrs.operation, truncate(code), String(rejected));
  if (failedOpen) metrics.webhookFailOpen.add(hook.name, type);
  else if (error) {
    const errorType = error instanceof CallingWebhookError ? 'calling_webhook_error' : (error as { status?: unknown }).status ? 'no_error' : 'apiserver_internal_error';
    metrics.webhookRejections.add(hook.name, type, attrs.operation, errorType, errorType === 'no_error' ? truncate(code) : '0');
  }
}
