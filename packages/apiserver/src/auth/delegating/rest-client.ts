import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { RestConfig } from './kubeconfig.js';

/** A failed call: `code` is the HTTP status when the server answered, undefined when it could not be reached. */
export class RestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** JSON calls to the main server, with the credentials of a kubeconfig. */
export interface RestClient {
  get(path: string): Promise<unknown>;
  post(path: string, body: unknown): Promise<unknown>;
  close(): void;
}

const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * A small client-go REST client: kept-alive HTTPS connections verified with the kubeconfig's CA (or not, with
 * `insecure-skip-tls-verify`), its client certificate or bearer token, `timeoutMs` per call (default 10 s, kube's
 * webhook client timeout). Non-2xx answers are RestErrors carrying the Status message.
 */
export function createRestClient(config: RestConfig, options: { timeoutMs?: number } = {}): RestClient {
  const base = new URL(config.server);
  const secure = base.protocol === 'https:';
  const agent = secure
    ? new Agent({ keepAlive: true, ca: config.ca, cert: config.cert, key: config.key, rejectUnauthorized: !config.insecureSkipTLSVerify })
    : undefined;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<unknown>((resolvePromise, reject) => {
      const url = new URL(base.pathname.replace(/\/$/, '') + path, base);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = { accept: 'application/json' };
      if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      if (config.token) headers.authorization = `Bearer ${config.token}`;
      const send = secure ? httpsRequest : httpRequest;
      const req = send(url, { method, agent, headers, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) req.destroy(new Error('response too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (code < 200 || code >= 300) {
            const message = (parsed as { message?: unknown } | undefined)?.message;
            return reject(new RestError(typeof message === 'string' && message ? message : `${method} ${url.href}: status ${code}`, code));
          }
          if (parsed === undefined) return reject(new RestError(`${method} ${url.href}: the answer is not JSON`));
          resolvePromise(parsed);
        });
        res.on('error', (err) => reject(new RestError(`${method} ${url.href}: ${err.message}`)));
      });
      req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
      req.on('error', (err) => reject(new RestError(`${method} "${url.href}": ${err.message}`)));
      req.end(payload);
    });
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    close: () => agent?.destroy(),
  };
}
