import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import { newInternalError, type KubeObject } from '@kapi/apimachinery';
import type { KindConversion } from '@kapi/apiserver';
import { randomUUID } from 'node:crypto';
import { request } from 'node:https';

/** kube's timeout of a conversion webhook call. */
const TIMEOUT_MS = 30_000;

/** Where a webhook's Service sends requests (kube's service resolver): a URL, or undefined when it has no address. */
export type ServiceResolver = (service: { namespace: string; name: string; port: number }) => Promise<URL | undefined>;

interface ClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

interface ConversionResponse {
  uid?: string;
  convertedObjects?: KubeObject[];
  result?: { status?: string; message?: string };
}

/** POSTs a JSON body over HTTPS, verifying the server with `ca` (the system's CAs without it). */
function post(url: URL, body: string, options: { ca?: Buffer; servername?: string }): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, ca: options.ca, servername: options.servername, timeout: TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300) return reject(new Error(`the server responded with status ${res.statusCode}: ${text.slice(0, 200)}`));
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error('the response is not a ConversionReview'));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`context deadline exceeded (Client.Timeout ${TIMEOUT_MS / 1000}s)`)));
    req.on('error', (err) => reject(new Error(`Post "${url.href}": ${err.message}`)));
    req.end(body);
  });
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
export function webhookConversion(crd: CustomResourceDefinition, storageVersion: string, kind: string, resolve: ServiceResolver): KindConversion {
  const webhook = crd.spec.conversion?.webhook as { clientConfig?: ClientConfig; conversionReviewVersions?: string[] } | undefined;
  const config: ClientConfig = webhook?.clientConfig ?? {};
  const reviewVersion = webhook?.conversionReviewVersions?.includes('v1') ? 'v1' : 'v1beta1';
  const ca = config.caBundle ? Buffer.from(config.caBundle, 'base64') : undefined;
  const target = async (): Promise<{ url: URL; servername?: string }> => {
    if (config.url) return { url: new URL(config.url) };
    const service = config.service;
    if (!service) throw new Error('the webhook has neither url nor service');
    const base = await resolve({ namespace: service.namespace, name: service.name, port: service.port ?? 443 });
    if (!base) throw new Error(`service "${service.namespace}/${service.name}" has no address`);
    return { url: new URL(service.path ?? '/', base), servername: `${service.name}.${service.namespace}.svc` };
  };
  return {
    storageVersion,
    async convert(objects, desired) {
      const from = objects[0]?.apiVersion;
      try {
        const { url, servername } = await target();
        url.searchParams.set('timeout', `${TIMEOUT_MS / 1000}s`);
        const uid = randomUUID();
        const review = { apiVersion: `apiextensions.k8s.io/${reviewVersion}`, kind: 'ConversionReview', request: { uid, desiredAPIVersion: desired, objects } };
        const answer = (await post(url, JSON.stringify(review), { ca, servername })) as { response?: ConversionResponse };
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
