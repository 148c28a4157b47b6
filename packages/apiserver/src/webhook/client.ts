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

/** The most a webhook may answer with: far beyond any AdmissionReview or ConversionReview of an object Kapi stores. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * client-go's error for a non-2xx answer: the message of a Status body, else `an error on the server ("<body>")
 * has prevented the request from succeeding`, else the bare code.
 */
function statusMessage(code: number, parsed: unknown, text: string): string {
  const status = parsed as { kind?: unknown; message?: unknown } | undefined;
  if (status && status.kind === 'Status' && typeof status.message === 'string' && status.message) return status.message;
  const body = text.trim();
  if (body) return `an error on the server (${JSON.stringify(body.length > 1024 ? `${body.slice(0, 1024)}...` : body)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
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
  /** `signal` abandons the call (the request it serves timed out). */
  post(config: WebhookClientConfig, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown>;
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
    async post(config, body, timeoutMs, signal) {
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
            let size = 0;
            res.on('data', (c: Buffer) => {
              size += c.length;
              if (size > MAX_RESPONSE_BYTES) {
                clearTimeout(timer);
                req.destroy();
                fail(new WebhookCallError(`Post "${url.href}": the response is larger than ${MAX_RESPONSE_BYTES} bytes`, 'decode'));
                return;
              }
              chunks.push(c);
            });
            res.on('end', () => {
              clearTimeout(timer);
              if (size > MAX_RESPONSE_BYTES) return;
              const code = res.statusCode ?? 0;
              let text = '';
              let parsed: unknown;
              try {
                text = Buffer.concat(chunks).toString('utf8');
                parsed = JSON.parse(text);
              } catch (err) {
                if (code >= 200 && code < 300) return fail(new WebhookCallError(`Post "${url.href}": ${(err as Error).message}`, 'decode'));
              }
              if (code < 200 || code >= 300) return fail(new WebhookCallError(statusMessage(code, parsed, text), 'status', code));
              resolvePost(parsed);
            });
            res.on('error', (err) => fail(new WebhookCallError(`Post "${url.href}": ${err.message}`, 'transport')));
          },
        );
        const abandon = () => {
          clearTimeout(timer);
          req.destroy();
          fail(new WebhookCallError(`Post "${url.href}": context deadline exceeded`, 'timeout'));
        };
        if (signal?.aborted) queueMicrotask(abandon);
        else signal?.addEventListener('abort', abandon, { once: true });
        const timer = setTimeout(() => {
          req.destroy();
          fail(new WebhookCallError(`Post "${url.href}": context deadline exceeded`, 'timeout'));
        }, timeoutMs);
        req.on('close', () => signal?.removeEventListener('abort', abandon));
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
