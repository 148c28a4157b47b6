import { credentials, status, type ChannelCredentials, type Client, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { etcdServices } from './proto.js';
import type { RangeRequest, RangeResponse, TxnRequest, TxnResponse, WatchRequest, WatchResponse } from './messages.js';

export interface EtcdTlsOptions {
  /** PEM of the CA that signed the servers' certificates (`--etcd-cafile`); the system roots when absent. */
  ca?: Buffer;
  /** PEM client certificate and key for mutual TLS (`--etcd-certfile`, `--etcd-keyfile`). */
  cert?: Buffer;
  key?: Buffer;
}

export interface EtcdClientOptions {
  /** `--etcd-servers`: `http://host:port` or `https://host:port` URLs (a bare `host:port` means http). */
  endpoints: string[];
  tls?: EtcdTlsOptions;
  /** Deadline of each request, in ms: an unreachable etcd fails requests after at most this long. Default 5000. */
  requestTimeoutMs?: number;
}

interface Endpoint {
  url: string;
  kv: Client;
  watch: Client;
  maintenance: Client;
}

type Unary<Req, Res> = (request: Req, options: { deadline: number }, callback: (err: ServiceError | null, res: Res) => void) => unknown;

/**
 * A thin etcd v3 client on @grpc/grpc-js: one channel per endpoint, unary calls with a deadline, and a failover
 * to the next endpoint when one is unreachable (reads are retried there at once; writes are not, since one that
 * reached etcd before the connection broke may have been applied).
 */
export class EtcdClient {
  private readonly endpoints: Endpoint[];
  private current = 0;
  private readonly timeoutMs: number;

  constructor(options: EtcdClientOptions) {
    if (options.endpoints.length === 0) throw new Error('no etcd endpoints given');
    this.timeoutMs = options.requestTimeoutMs ?? 5000;
    const { KV, Watch, Maintenance } = etcdServices();
    const channelOptions = {
      // Reconnect soon after etcd comes back, instead of grpc's default backoff of up to two minutes.
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 2000,
      // Notice a dead connection under an idle watch (etcd allows pings every 5 s and more).
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
    };
    this.endpoints = options.endpoints.map((url) => {
      const { address, secure } = parseEndpoint(url);
      const creds: ChannelCredentials = secure
        ? credentials.createSsl(options.tls?.ca ?? null, options.tls?.key ?? null, options.tls?.cert ?? null)
        : credentials.createInsecure();
      return {
        url,
        kv: new KV(address, creds, channelOptions),
        watch: new Watch(address, creds, channelOptions),
        maintenance: new Maintenance(address, creds, channelOptions),
      };
    });
  }

  get requestTimeoutMs(): number {
    return this.timeoutMs;
  }

  range(request: RangeRequest): Promise<RangeResponse> {
    return this.unary<RangeRequest, RangeResponse>('kv', 'Range', request, true);
  }

  txn(request: TxnRequest): Promise<TxnResponse> {
    return this.unary<TxnRequest, TxnResponse>('kv', 'Txn', request, false);
  }

  compact(revision: number): Promise<unknown> {
    return this.unary('kv', 'Compact', { revision, physical: false }, false);
  }

  /** The member's status (its database size, version, raft state). */
  status(): Promise<{ dbSize: number; version: string }> {
    return this.unary('maintenance', 'Status', {}, true);
  }

  /** Opens a watch stream on the current endpoint. */
  watchStream(): ClientDuplexStream<WatchRequest, WatchResponse> {
    const endpoint = this.endpoints[this.current];
    return (endpoint.watch as unknown as { Watch(): ClientDuplexStream<WatchRequest, WatchResponse> }).Watch();
  }

  /** Tells the client its current endpoint failed (a watch stream broke): the next call uses another one. */
  failedOver(): void {
    this.current = (this.current + 1) % this.endpoints.length;
  }

  close(): void {
    for (const e of this.endpoints) {
      e.kv.close();
      e.watch.close();
      e.maintenance.close();
    }
  }

  private async unary<Req, Res>(service: 'kv' | 'maintenance', method: string, request: Req, retryable: boolean): Promise<Res> {
    const deadline = Date.now() + this.timeoutMs;
    let attempts = retryable ? this.endpoints.length : 1;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts && Date.now() < deadline; attempt++) {
      const endpoint = this.endpoints[this.current];
      const call = (endpoint[service] as unknown as Record<string, Unary<Req, Res>>)[method].bind(endpoint[service]);
      try {
        return await new Promise<Res>((resolve, reject) => {
          call(request, { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
        });
      } catch (err) {
        lastError = err;
        if (!isConnectionError(err)) throw err;
        if (this.endpoints.length > 1 && this.endpoints[this.current] === endpoint) this.failedOver();
        // A write is tried on the next endpoint only when it never left: grpc-js had no connection to send it on.
        if (!retryable && attempt === 0 && neverSent(err) && this.endpoints.length > 1) attempts = this.endpoints.length;
      }
    }
    throw lastError;
  }
}

/** Errors meaning the endpoint could not be reached or answered too late, rather than an answer from etcd. */
export function isConnectionError(err: unknown): boolean {
  const code = (err as Partial<ServiceError>)?.code;
  return code === status.UNAVAILABLE || code === status.DEADLINE_EXCEEDED;
}

/** grpc-js's answer for a call that found no connection to go out on (so it reached no server). */
function neverSent(err: unknown): boolean {
  return (err as Partial<ServiceError>)?.code === status.UNAVAILABLE && /^No connection established/.test(String((err as ServiceError).details));
}

/** `http://127.0.0.1:2379` → grpc's `127.0.0.1:2379`; `https://` turns TLS on. */
export function parseEndpoint(endpoint: string): { address: string; secure: boolean } {
  const trimmed = endpoint.trim();
  const match = /^(https?|unix|unixs):\/\/(.+?)\/?$/.exec(trimmed);
  if (!match) {
    if (/^[^/]+:\d+$/.test(trimmed)) return { address: trimmed, secure: false };
    throw new Error(`invalid etcd endpoint ${JSON.stringify(endpoint)}: expected http(s)://host:port`);
  }
  const [, scheme, rest] = match;
  if (scheme === 'unix' || scheme === 'unixs') return { address: `unix:${rest}`, secure: scheme === 'unixs' };
  return { address: rest, secure: scheme === 'https' };
}
