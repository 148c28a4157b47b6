import type { WebhookClientConfig } from '@kapi/apiserver';
import type { LabelSelector, Rule } from '../match/index.js';
import type { CompiledMatchConditions } from '../conditions.js';

/** One webhook of a Mutating- or ValidatingWebhookConfiguration, defaults applied, as the dispatchers call it. */
export interface Webhook {
  type: 'mutating' | 'validating';
  /** The configuration's name. */
  configuration: string;
  /** The webhook's name (unique within its configuration). */
  name: string;
  /** Where the webhook is in the server's sorted list (kube's `index` in audit annotation keys). */
  index: number;
  clientConfig: WebhookClientConfig;
  rules: Rule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: 'Never' | 'IfNeeded';
  matchConditions: CompiledMatchConditions;
}
