import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import type { ClientConfig } from './config.js';
import { ApiError } from './errors.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  method?: string;
  /** The path under the server's URL: `/apis/apps/v1/namespaces/x/deployments`. */
  path: string;
  query?: Query;
  /** A JSON body (objects are serialized), sent with `contentType` (application/json by default). */
  body?: unknown;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

const TOKEN_FILE_TTL_MS = 60_000;

/**
 * Sends requests to one API server with the configuration's credentials, and turns every non-2xx answer into an
 * `ApiError` carrying the server's Status.
 */
export class Transport {
  readonly server: string;
  private readonly agent?: Agent;
  private readonly send: (url: string, init: RequestInit) => Promise<Response>;
  private tokenRead?: { token: string; at: number };

  constructor(readonly config: ClientConfig) {
    this.server = config.server.replace(/\/+$/, '');
    if (config.fetch) {
      const own = config.fetch;
      this.send = (url, init) => own(new Request(url, init));
    } else {
      this.agent = new Agent({
        connect: {
          ca: config.ca,
          cert: config.cert,
          key: config.key,
          rejectUnauthorized: !config.insecureSkipTLSVerify,
          servername: config.tlsServerName,
        },
        // Watches stream for minutes; the server's timeoutSeconds ends them.
        bodyTimeout: 0,
      });
      const dispatcher = this.agent;
      this.send = (url, init) => undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher }) as unknown as Promise<Response>;
    }
  }

  private authorization(): string | undefined {
    const { config } = this;
    if (config.token) return `Bearer ${config.token}`;
    if (config.tokenFile) {
      const now = Date.now();
      if (!this.tokenRead || now - this.tokenRead.at > TOKEN_FILE_TTL_MS) {
        this.tokenRead = { token: readFileSync(config.tokenFile, 'utf8').trim(), at: now };
      }
      return `Bearer ${this.tokenRead.token}`;
    }
    if (config.username !== undefined) return `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`;
    return undefined;
  }

  url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return `${this.server}${path}${qs ? `?${qs}` : ''}`;
  }

  /** The response of a 2xx answer; any other answer is thrown as an ApiError. */
  async request(options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    headers['user-agent'] = this.config.userAgent ?? 'kapi-client';
    const auth = this.authorization();
    if (auth) headers.authorization = auth;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const res = await this.send(this.url(options.path, options.query), {
      method: options.method ?? 'GET',
      // A redirect is answered as the error it is: a body (a Secret's data) is never sent on to another host.
      redirect: 'manual',
      headers,
      body,
      signal: options.signal,
    });
    if (res.status < 200 || res.status > 299) throw await ApiError.from(res);
    return res;
  }

  /** The JSON body of a 2xx answer. */
  async json<T>(options: RequestOptions): Promise<T> {
    const res = await this.request(options);
    return (await res.json()) as T;
  }

  /** Closes the connections kept open to the server. */
  async close(): Promise<void> {
    await this.agent?.close();
  }
}
