import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import type { ClientConfig } from './config.js';
import { ApiError } from './errors.js';
import { ExecCredentialSource, type ExecCredential } from './exec-credential.js';

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
  private readonly send: (url: string, init: RequestInit, credential?: ExecCredential) => Promise<Response>;
  private tokenRead?: { token: string; at: number };
  private readonly execSource?: ExecCredentialSource;
  /** The connections made with the client certificate an exec plugin gave, while that certificate is current. */
  private execAgent?: { credential: ExecCredential; agent: Agent };

  constructor(readonly config: ClientConfig) {
    this.server = config.server.replace(/\/+$/, '');
    if (config.exec) {
      this.execSource = new ExecCredentialSource(config.exec, {
        server: config.server,
        'tls-server-name': config.tlsServerName,
        'insecure-skip-tls-verify': config.insecureSkipTLSVerify || undefined,
        'certificate-authority-data': config.ca === undefined ? undefined : Buffer.from(config.ca).toString('base64'),
        config: config.execClusterConfig,
      });
    }
    if (config.fetch) {
      const own = config.fetch;
      this.send = (url, init) => own(new Request(url, init));
    } else {
      this.agent = this.newAgent(config.cert, config.key);
      this.send = (url, init, credential) => {
        const dispatcher = credential?.cert ? this.agentFor(credential) : this.agent;
        return undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher }) as unknown as Promise<Response>;
      };
    }
  }

  private newAgent(cert: string | Buffer | undefined, key: string | Buffer | undefined): Agent {
    const { config } = this;
    return new Agent({
      connect: { ca: config.ca, cert, key, rejectUnauthorized: !config.insecureSkipTLSVerify, servername: config.tlsServerName },
      // Watches stream for minutes; the server's timeoutSeconds ends them.
      bodyTimeout: 0,
    });
  }

  /** The agent presenting an exec plugin's client certificate; a new certificate gets new connections. */
  private agentFor(credential: ExecCredential): Agent {
    const kept = this.execAgent;
    if (kept && kept.credential.cert === credential.cert && kept.credential.key === credential.key) return kept.agent;
    // Requests still running on the old connections finish there; then they close.
    void kept?.agent.close().catch(() => {});
    const agent = this.newAgent(credential.cert, credential.key);
    this.execAgent = { credential, agent };
    return agent;
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
    // A token or password given with the plugin wins, as in client-go; the plugin runs only without one.
    let auth = this.authorization();
    const credential = auth === undefined && this.execSource ? await this.execSource.get() : undefined;
    if (credential?.token) auth = `Bearer ${credential.token}`;
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
    }, credential);
    if (res.status === 401 && credential) this.execSource!.refused(credential);
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
    await Promise.all([this.agent?.close(), this.execAgent?.agent.close()]);
  }
}
