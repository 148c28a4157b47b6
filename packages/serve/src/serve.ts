import { createAdaptorServer, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { isLongRunning } from '@kapi/apiserver';
import { answerClientErrors, MAX_HEADER_BYTES, TLS12_CIPHERS } from './limits.js';
import { addResponseHeader, HeaderedResponse } from './response-headers.js';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { X509Certificate } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** The client certificate the transport verified against the client CA (what @kapi/apiserver's fetch takes). */
export interface FetchEnv {
  peerCertificate?: { subject: { CN?: string; O?: string | string[] } };
  /** Why a client certificate the client presented did not verify (the server answers 401). */
  peerCertificateError?: string;
  /** Every certificate the client presented, leaf first, unverified (for delegated authentication's own CAs). */
  peerCertificateChain?: readonly X509Certificate[];
  /** The client's address (the audit log's sourceIPs) and port (the HTTP log's srcIP). */
  remoteAddress?: string;
  remotePort?: number;
  /** Sets a header on the Node response (the server's Audit-Id), before the Response is written to it. */
  setResponseHeader?(name: string, value: string): void;
  /** The request body as Node's stream: the server reads it straight from there. */
  requestBody?: IncomingMessage | Http2Bindings['incoming'];
}

/**
 * The part of `@kapi/apiserver`'s ApiServer this module uses; the real one satisfies it, and tests pass fakes.
 */
export interface ServedApi {
  fetch(request: Request, env?: FetchEnv): Response | Promise<Response>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Makes `/readyz` fail while requests are still served (graceful shutdown). */
  beginShutdown?(): void;
  /** Ends open watch streams cleanly. Without it, `close()` cuts them. */
  endWatches?(): void;
  /** Answers new requests 429 with Retry-After (`--shutdown-send-retry-after`). */
  sendRetryAfter?(): void;
}

/** A port to listen on: a number (0 = no listener, as the kube flags mean it) or 'ephemeral' for any free port. */
export type ListenPort = number | 'ephemeral';

export interface StartServerOptions {
  apiServer: ServedApi;
  /** `--bind-address`. */
  bindAddress: string;
  /** `--secure-port`: HTTPS; needs `tls`. */
  securePort: ListenPort;
  /** `--insecure-port`: plain HTTP. Default 0 (off). */
  insecurePort?: ListenPort;
  /**
   * Serving certificate and key, PEM; `clientCa` (`--client-ca-file`) makes the secure port ask for client
   * certificates and hand the verified ones to the ApiServer (unverified ones are ignored: the request then
   * authenticates otherwise, as kube-apiserver does). `requestClientCertificates` asks for client certificates
   * without verifying them in TLS: the ApiServer gets the presented chain (`peerCertificateChain`) and its
   * authenticators verify it against their own CAs (an extension server's client CA and front-proxy CA).
   */
  tls?: { cert: string; key: string; clientCa?: string; requestClientCertificates?: boolean };
  /** Where "listening on" lines go (stdout in the binary). */
  log?: (message: string) => void;
  /** The name those lines give the server. Default `kapi-server`. */
  name?: string;
  /** How long `close()` lets in-flight requests finish before cutting their connections. Default 5 s. */
  shutdownTimeoutMs?: number;
  /**
   * `--shutdown-delay-duration`: after `close()` is called, `/readyz` fails but requests are still served this
   * long (ms), so load balancers take the server out before it stops accepting. Default 0.
   */
  shutdownDelayMs?: number;
  /**
   * `--shutdown-send-retry-after`: after the delay, the listeners stay open until the requests in flight (watches
   * aside) have finished (up to `shutdownTimeoutMs`), while every new request is answered 429 with `Retry-After` and
   * `Connection: close`; only then do they stop accepting. Default false.
   */
  shutdownSendRetryAfter?: boolean;
}

export interface RunningServer {
  /** Each enabled listener's URL, with a host clients can connect to (127.0.0.1 for a 0.0.0.0 bind). */
  urls: { https?: string; http?: string };
  /** The URL clients should use: HTTPS when enabled, else HTTP. */
  url: string;
  /**
   * Shuts down as kube-apiserver does: `/readyz` fails at once, requests are served for `shutdownDelayMs`, then
   * the listeners stop accepting, idle keep-alive connections are dropped, watch streams end cleanly (cut when the
   * ApiServer cannot end them), other in-flight requests finish (up to `shutdownTimeoutMs`), and the ApiServer
   * stops. Idempotent.
   */
  close(): Promise<void>;
}

/** Starts the ApiServer (`apiServer.start()`), then its HTTPS and/or HTTP listeners. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const insecurePort = options.insecurePort ?? 0;
  if (options.securePort === 0 && insecurePort === 0) throw new Error('no listener: both the secure and the insecure port are 0');
  if (options.securePort !== 0 && !options.tls) throw new Error('a secure port needs a serving certificate (tls)');

  await options.apiServer.start();
  const listeners: Listener[] = [];
  const urls: RunningServer['urls'] = {};
  try {
    if (options.securePort !== 0) {
      const listener = await listen(options, 'https', options.securePort);
      listeners.push(listener);
      urls.https = listener.url;
      log(`${options.name ?? 'kapi-server'} listening on ${listener.url}`);
    }
    if (insecurePort !== 0) {
      const listener = await listen(options, 'http', insecurePort);
      listeners.push(listener);
      urls.http = listener.url;
      log(`${options.name ?? 'kapi-server'} listening on ${listener.url} (insecure port: plain HTTP, for local development only)`);
      log(`WARNING: the insecure port ${listener.url} serves without TLS: anything sent to it, tokens included, can be read and changed on the way; clients cannot present certificates there. Never expose it beyond this machine.`);
    }
  } catch (error) {
    await Promise.all(listeners.map((l) => l.close(0, true)));
    await options.apiServer.stop();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const timeout = options.shutdownTimeoutMs ?? 5000;
  return {
    urls,
    url: (urls.https ?? urls.http)!,
    close: () =>
      (closing ??= (async () => {
        const api = options.apiServer;
        api.beginShutdown?.();
        if (options.shutdownDelayMs) await new Promise((resolve) => setTimeout(resolve, options.shutdownDelayMs));
        if (options.shutdownSendRetryAfter && api.sendRetryAfter) {
          api.sendRetryAfter();
          await Promise.all(listeners.map((l) => l.drained(timeout)));
        }
        const closed = Promise.all(listeners.map((l) => l.close(timeout, !api.endWatches)));
        api.endWatches?.();
        await closed;
        await api.stop();
      })()),
  };
}

/**
 * Closes `running` on the first SIGINT/SIGTERM and exits 0 (1 if closing failed); a second signal exits 1 at once,
 * as kube-apiserver does. Returns a function that removes the handlers.
 */
export function closeOnSignals(
  running: RunningServer,
  log: (message: string) => void = console.log,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const again = () => exit(1);
  const onSignal = (signal: NodeJS.Signals) => {
    log(`received ${signal}, shutting down`);
    for (const s of signals) {
      process.removeListener(s, onSignal);
      process.once(s, again);
    }
    running.close().then(
      () => exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        exit(1);
      },
    );
  };
  for (const s of signals) process.once(s, onSignal);
  return () => {
    for (const s of signals) {
      process.removeListener(s, onSignal);
      process.removeListener(s, again);
    }
  };
}

interface Listener {
  url: string;
  /** Resolves once no request is in flight but long-running ones (or after `timeoutMs`). */
  drained(timeoutMs: number): Promise<void>;
  /** Stops accepting and waits for in-flight requests (up to `timeoutMs`); `cutWatches` destroys watches at once. */
  close(timeoutMs: number, cutWatches: boolean): Promise<void>;
}

async function listen(options: StartServerOptions, scheme: 'http' | 'https', port: ListenPort): Promise<Listener> {
  const tls = options.tls;
  const clientAuth = tls?.clientCa
    ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false }
    : tls?.requestClientCertificates
      ? { requestCert: true, rejectUnauthorized: false }
      : {};
  // Either the TLS layer verifies client certificates against the one client CA, or the presented chain is handed on.
  const clientCertificates = tls?.clientCa ? 'verified' : tls?.requestClientCertificates ? 'chain' : 'none';
  const fetch = (request: Request, env: HttpBindings | Http2Bindings) => options.apiServer.fetch(request, new NodeFetchEnv(env, clientCertificates));
  const server = (
    scheme === 'https'
      ? createAdaptorServer({
          fetch,
          createServer: createHttpsServer,
          serverOptions: {
            cert: tls!.cert,
            key: tls!.key,
            minVersion: 'TLSv1.2',
            ciphers: TLS12_CIPHERS,
            maxHeaderSize: MAX_HEADER_BYTES,
            ServerResponse: HeaderedResponse,
            ...clientAuth,
          },
        })
      : createAdaptorServer({ fetch, createServer: createHttpServer, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES, ServerResponse: HeaderedResponse } })
  ) as Server;
  answerClientErrors(server);

  // Every TCP connection, from its first byte: one still in its TLS handshake, or handshaken but silent, is no HTTP
  // connection yet, so neither closeIdleConnections nor closeAllConnections ends it, and it would hold close() until
  // the client gave up (TLS allows 120 s for a handshake). Go's Shutdown drops such connections too.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  // Requests in flight. Whether one is long-running (a watch, which never finishes on its own) matters only while
  // shutting down, so it is worked out then, once per request, rather than for every request served.
  const inFlight = new Map<ServerResponse, { req: IncomingMessage; longRunning?: boolean }>();
  const longRunning = (entry: { req: IncomingMessage; longRunning?: boolean }) =>
    (entry.longRunning ??= isLongRunning(entry.req.method ?? 'GET', new URL(entry.req.url ?? '/', 'http://localhost')));
  let shuttingDown = false;
  const drainWaiters = new Set<() => void>();
  const isDrained = () => [...inFlight.values()].every(longRunning);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(res, { req });
    if (shuttingDown) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (drainWaiters.size && isDrained()) for (const done of drainWaiters) done();
      // A keep-alive connection that just finished its last request is idle now: drop it.
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
  });

  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${formatHost(options.bindAddress)}:${port === 'ephemeral' ? 0 : port}`;
      reject(new Error(`failed to listen on ${where}: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`));
    });
    server.listen(port === 'ephemeral' ? 0 : port, options.bindAddress, () => resolve(server.address() as AddressInfo));
  });

  return {
    url: `${scheme}://${formatHost(connectHost(options.bindAddress))}:${address.port}`,
    drained: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (isDrained()) return resolve();
        const done = () => {
          clearTimeout(timer);
          drainWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        drainWaiters.add(done);
      }),
    close: (timeoutMs, cutWatches) =>
      new Promise<void>((done) => {
        shuttingDown = true;
        server.close(() => {
          clearTimeout(timer);
          done();
        });
        if (cutWatches) for (const [res, entry] of inFlight) if (longRunning(entry)) res.destroy();
        server.closeIdleConnections();
        const timer = setTimeout(() => {
          server.closeAllConnections();
          for (const socket of sockets) socket.destroy();
        }, timeoutMs);
        timer.unref();
      }),
  };
}

/** What the ApiServer is told about a request served by Node: one shape for every request, no closures. */
class NodeFetchEnv implements FetchEnv {
  readonly peerCertificate?: FetchEnv['peerCertificate'];
  readonly peerCertificateError?: string;
  readonly peerCertificateChain?: readonly X509Certificate[];
  readonly remoteAddress?: string;
  readonly remotePort?: number;
  readonly requestBody?: FetchEnv['requestBody'];
  private readonly outgoing: unknown;

  constructor(env: HttpBindings | Http2Bindings, clientCertificates: 'verified' | 'chain' | 'none') {
    const socket = env.incoming?.socket;
    const client = clientCertificates === 'verified' ? verifiedClient(socket) : undefined;
    this.peerCertificate = client?.peerCertificate;
    this.peerCertificateError = client?.peerCertificateError;
    this.peerCertificateChain = clientCertificates === 'chain' ? presentedChain(socket) : undefined;
    this.remoteAddress = socket?.remoteAddress;
    this.remotePort = socket?.remotePort;
    this.outgoing = env.outgoing;
    this.requestBody = env.incoming;
  }

  get rawHeaders(): readonly string[] | undefined {
    return (this.requestBody as { rawHeaders?: string[] } | undefined)?.rawHeaders;
  }

  setResponseHeader(name: string, value: string): void {
    addResponseHeader(this.outgoing, name, value);
  }
}

/** The client certificate of a TLS connection: its subject once it chained to the client CA, else why it did not. */
function verifiedClient(socket: unknown): FetchEnv | undefined {
  const tlsSocket = socket as Partial<TLSSocket> | undefined;
  if (typeof tlsSocket?.getPeerCertificate !== 'function') return undefined;
  const cert = tlsSocket.getPeerCertificate();
  if (!cert || !cert.subject) return undefined;
  // A certificate that does not chain to the client CA is refused (401), never ignored as if there were none.
  if (!tlsSocket.authorized) return { peerCertificateError: String(tlsSocket.authorizationError ?? 'certificate not verified') };
  const cn = cert.subject.CN as string | string[] | undefined;
  return { peerCertificate: { subject: { CN: Array.isArray(cn) ? cn[0] : cn, O: cert.subject.O } } };
}

/**
 * The certificates a TLS client presented, leaf first (node's issuerCertificate links, which end at a self-signed
 * one or loop on it). Undefined when it presented none.
 */
function presentedChain(socket: unknown): X509Certificate[] | undefined {
  const tlsSocket = socket as Partial<TLSSocket> | undefined;
  if (typeof tlsSocket?.getPeerX509Certificate !== 'function') return undefined;
  const leaf = tlsSocket.getPeerX509Certificate();
  if (!leaf) return undefined;
  const chain = [leaf];
  // Only the leaf is exposed as an X509Certificate; intermediates the client sent come through the detailed chain.
  let detailed = typeof tlsSocket.getPeerCertificate === 'function' ? tlsSocket.getPeerCertificate(true) : undefined;
  const seen = new Set<unknown>([detailed]);
  while (detailed?.issuerCertificate && !seen.has(detailed.issuerCertificate) && chain.length < 10) {
    detailed = detailed.issuerCertificate;
    seen.add(detailed);
    if (detailed.raw) chain.push(new X509Certificate(detailed.raw));
  }
  return chain;
}

/** The address clients connect to for a bind address: loopback for the unspecified addresses. */
function connectHost(bindAddress: string): string {
  return bindAddress === '0.0.0.0' || bindAddress === '::' || bindAddress === '' ? '127.0.0.1' : bindAddress;
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
