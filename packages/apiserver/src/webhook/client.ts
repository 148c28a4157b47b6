import { Agent, request } from 'node:https';

/** Where a webhook's Service sends requests (kube's service resolver): a base URL, or undefined when it has no address. */
export type ServiceResolver = (service: { namespace: string; name: string; port: number }) => Promise<URL | undefined>;

/** kube's WebhookClientConfig: a URL, or a Service (port 443 by default) and path; the CA that signs its certificate. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** PEM bundle, base64 (as the API carries it); the system's CAs when absent. */
  caBundle?: string;
}

/** Why a webhook call failed: `timeout` when its deadline passed, `transport` for anything else before an answer. */
export class WebhookCallError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'transport' | 'status' | 'decode',
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/** Go's rendering of a call's deadline as the `timeout` query parameter (`10s`), whole seconds rounded up. */
const goSeconds = (ms: number) => `${Math.ceil(ms / 1000)}s`;

/**
 * A client for webhooks (k8s.io/apiserver's webhook ClientManager): POSTs a JSON body to a webhook's URL or
 * Service over HTTPS, verified with its caBundle, within a deadline (`?timeout=` tells the webhook, as kube's
 * REST client does), and answers the decoded JSON. Connections are kept alive and reused, one agent per CA
 * bundle. Failures are WebhookCallErrors with Go's `Post "<url>": <reason>` text.
 */
export interface WebhookClient {
  post(config: WebhookClientConfig, body: unknown, timeoutMs: number): Promise<unknown>;
  /** Closes the pooled connections. */
  close(): void;
}

export function createWebhookClient(resolve: ServiceResolver): WebhookClient {
  const agents = new Map<string, Agent>();
  const agentFor = (caBundle: string | undefined) => {
    const key = caBundle ?? '';
    let agent = agents.get(key);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: 64, ca: caBundle ? Buffer.from(caBundle, 'base64') : undefined });
      // A CA bundle that changed leaves its agent behind: keep the pool bounded.
      if (agents.size >= 256) for (const [k, a] of agents) (a.destroy(), agents.delete(k));
      agents.set(key, agent);
    }
    return agent;
  };
  const target = async (config: WebhookClientConfig): Promise<{ url: URL; servername?: string }> => {
    if (config.url) return { url: new URL(config.url) };
    const service = config.service;
    if (!service) throw new WebhookCallError('the webhook has neither url nor service', 'transport');
    const base = await resolve({ namespace: service.namespace, name: service.name, port: service.port ?? 443 });
    if (!base) throw new WebhookCallError(`service "${service.namespace}/${service.name}" has no address`, 'transport');
    return { url: new URL(service.path ?? '/', base), servername: `${service.name}.${service.namespace}.svc` };
  };
  return {
    async post(config, body, timeoutMs) {
      let resolved;
      try {
        resolved = await target(config);
      } catch (err) {
        throw err instanceof WebhookCallError ? err : new WebhookCallError((err as Error).message, 'transport');
      }
      const { url, servername } = resolved;
      url.searchParams.set('timeout', goSeconds(timeoutMs));
      const payload = JSON.stringify(body);
      return new Promise((resolvePost, reject) => {
        const fail = (err: WebhookCallError) => reject(err);
        const req = request(
          url,
          {
            method: 'POST',
            agent: agentFor(config.caBundle),
            servername,
            headers: { 'content-type': 'application/json', accept: 'application/json, */*', 'content-length': Buffer.byteLength(payload) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              clearTimeout(timer);
              const text = Buffer.concat(chunks).toString('utf8');
              const code = res.statusCode ?? 0;
              if (code < 200 || code >= 300) return fail(new WebhookCallError(`the server responded with the status code ${code} but did not return more information`, 'status', code));
              try {
                resolvePost(JSON.parse(text));
              } catch (err) {
                fail(new WebhookCallError(`Post "${url.href}": ${(err as Error).message}`, 'decode'));
              }
            });
            res.on('error', (err) => fail(new WebhookCallError(`Post "${url.href}": ${err.message}`, 'transport')));
          },
        );
        const timer = setTimeout(() => {
          req.destroy();
          fail(new WebhookCallError(`Post "${url.href}": context deadline exceeded`, 'timeout'));
        }, timeoutMs);
        req.on('error', (err) => {
          clearTimeout(timer);
          fail(new WebhookCallError(`Post "${url.href}": ${err.message}`, 'transport'));
        });
        req.end(payload);
      });
    },
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
