import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import { newInternalError, type KubeObject } from '@kapi/apimachinery';
import type { KindConversion, WebhookClient, WebhookClientConfig } from '@kapi/apiserver';
import { randomUUID } from 'node:crypto';

/** kube's timeout of a conversion webhook call. */
const TIMEOUT_MS = 30_000;

interface ConversionResponse {
  uid?: string;
  convertedObjects?: KubeObject[];
  result?: { status?: string; message?: string };
}

/**
 * A converted object with the original's metadata, but for labels and annotations the webhook may change (kube's
 * restoreObjectMeta); its kind must not change and its apiVersion must be the one asked for.
 */
function restore(original: KubeObject, converted: KubeObject, desired: string): KubeObject {
  if (!converted || typeof converted !== 'object') throw new Error('a converted object is not an object');
  if (converted.apiVersion !== desired) throw new Error(`invalid converted object: expected apiVersion ${desired}, got ${String(converted.apiVersion)}`);
  if (converted.kind !== original.kind) throw new Error(`invalid converted object: expected kind ${String(original.kind)}, got ${String(converted.kind)}`);
  const meta = (converted.metadata ?? {}) as { labels?: unknown; annotations?: unknown };
  const metadata: Record<string, unknown> = { ...(original.metadata as object) };
  for (const key of ['labels', 'annotations'] as const) {
    if (meta[key] === undefined) delete metadata[key];
    else metadata[key] = meta[key];
  }
  return { ...converted, metadata };
}

/**
 * `Webhook` conversion of a CRD's versions (kube's webhookConverter): each conversion is one ConversionReview (v1, or
 * v1beta1 when the CRD accepts only that) POSTed to the webhook's URL or Service over HTTPS, verified with its
 * caBundle; any failure (unreachable, timeout, refused, a malformed answer) is a 500 naming the webhook, as kube's.
 */
export function webhookConversion(crd: CustomResourceDefinition, storageVersion: string, kind: string, client: WebhookClient): KindConversion {
  const webhook = crd.spec.conversion?.webhook as { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] } | undefined;
  const config: WebhookClientConfig = webhook?.clientConfig ?? {};
  const reviewVersion = webhook?.conversionReviewVersions?.includes('v1') ? 'v1' : 'v1beta1';
  return {
    storageVersion,
    async convert(objects, desired) {
      const from = objects[0]?.apiVersion;
      try {
        const uid = randomUUID();
        const review = { apiVersion: `apiextensions.k8s.io/${reviewVersion}`, kind: 'ConversionReview', request: { uid, desiredAPIVersion: desired, objects } };
        const answer = (await client.post(config, review, TIMEOUT_MS)) as { response?: ConversionResponse };
        const response = answer?.response;
        if (!response) throw new Error('no response provided');
        if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid}"`);
        if (response.result?.status !== 'Success') throw new Error(response.result?.message || 'the webhook did not answer Success');
        const converted = response.convertedObjects ?? [];
        if (converted.length !== objects.length) throw new Error(`returned ${converted.length} objects, expected ${objects.length}`);
        return converted.map((c, i) => restore(objects[i], c, desired));
      } catch (err) {
        throw newInternalError(`conversion webhook for ${from}, Kind=${kind} failed: ${(err as Error).message}`);
      }
    },
  };
}
