// How the aggregator dials an extension server: TLS verified against the APIService's caBundle (or not at all with
// insecureSkipTLSVerify) for the name `<service>.<namespace>.svc`, authenticated with the front-proxy client
// certificate; one keep-alive agent per APIService spec.
import { request as httpsRequest, Agent } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { APIService } from './apiservice/types.js';

/** The front proxy's client certificate and key (PEM): kube-apiserver's --proxy-client-cert-file/--proxy-client-key-file. */
export interface ProxyClientCertificate {
  cert: string | Buffer;
  key: string | Buffer;
}

/** What dialing an APIService's extension needs: an agent and the name its serving certificate must carry. */
export interface Dialer {
  agent: Agent;
  servername: string;
}

/** The dialer of each APIService, made anew when its spec changes. */
export function createDialers(clientCertificate: ProxyClientCertificate | undefined) {
  const dialers = new Map<string, { key: string; dialer: Dialer }>();
  return {
    /** The dialer of a service-backed APIService. */
    get(apiService: APIService): Dialer {
      const spec = apiService.spec;
      const key = JSON.stringify([spec.service, spec.caBundle ?? '', !!spec.insecureSkipTLSVerify]);
      const known = dialers.get(apiService.metadata.name);
      if (known?.key === key) return known.dialer;
      known?.dialer.agent.destroy();
      const ca = spec.caBundle ? Buffer.from(spec.caBundle, 'base64') : undefined;
      const agent = new Agent({
        keepAlive: true,
        ca,
        cert: clientCertificate?.cert,
        key: clientCertificate?.key,
        rejectUnauthorized: !spec.insecureSkipTLSVerify,
      });
      const dialer = { agent, servername: `${spec.service?.name ?? ''}.${spec.service?.namespace ?? ''}.svc` };
      dialers.set(apiService.metadata.name, { key, dialer });
      return dialer;
    },
    /** Drops the dialers of APIServices no longer there. */
    retain(names: ReadonlySet<string>) {
      for (const [name, { dialer }] of dialers) {
        if (names.has(name)) continue;
        dialer.agent.destroy();
        dialers.delete(name);
      }
    },
    /** Closes every connection (the server stops). */
    close() {
      for (const { dialer } of dialers.values()) dialer.agent.destroy();
      dialers.clear();
    },
  };
}

export type Dialers = ReturnType<typeof createDialers>;

/**
 * Who the aggregator is on its own requests to an extension (discovery checks, discovery and OpenAPI documents):
 * system:kube-aggregator in system:masters, as kube's.
 */
export const AGGREGATOR_USER = { 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' };

const hasHeader = (headers: OutgoingHttpHeaders, name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
const withoutHeader = (headers: OutgoingHttpHeaders, name: string): OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([h]) => h.toLowerCase() !== name));

type SendInit = { method: string; path: string; headers: OutgoingHttpHeaders; body?: Readable; signal?: AbortSignal; timeoutMs?: number };

/** Methods Go's http.Transport sends again when a kept-alive connection fails under them. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * One request to an extension; resolves with its response once the headers arrived. A body-less idempotent request
 * that fails on a kept-alive connection before any answer (the extension closed the idle connection as the request
 * went out: ECONNRESET, EPIPE, "socket hang up") is sent once more on a new one, as Go's http.Transport does: that
 * race is no sign of an extension that is down, and must not end watches or fail an availability check.
 */
export async function send(dialer: Dialer, target: URL, init: SendInit): Promise<IncomingMessage> {
  try {
    return await sendOnce(dialer, target, init);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
    const closedUnder = e.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
    if (!closedUnder || init.body || !IDEMPOTENT.has(init.method) || init.signal?.aborted) throw err;
    return sendOnce(dialer, target, init);
  }
}

function sendOnce(dialer: Dialer, target: URL, init: SendInit): Promise<IncomingMessage> {
  // A body of unknown length goes chunked whatever the method: Node's client chunks only POST, PUT and PATCH on its
  // own, and a DELETE body written without framing would reach the extension as a request of its own (smuggled
  // on the aggregator's trusted connection, with whatever front-proxy headers the client wrote into it).
  const headers = init.body && !hasHeader(init.headers, 'content-length') ? { ...withoutHeader(init.headers, 'transfer-encoding'), 'transfer-encoding': 'chunked' } : init.headers;
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      agent: dialer.agent,
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || 443,
      // the serving certificate is checked against the Service's DNS name, wherever it was dialed (kube's ServerName)
      servername: dialer.servername,
      method: init.method,
      path: init.path,
      headers,
      signal: init.signal,
    });
    // A server that takes the connection but never completes TLS is given up on as Go's TLSHandshakeTimeout does.
    req.once('socket', (socket) => {
      if (!(socket as { connecting?: boolean }).connecting) return;
      const handshake = setTimeout(() => req.destroy(new Error('net/http: TLS handshake timeout')), HANDSHAKE_TIMEOUT_MS);
      socket.once('secureConnect', () => clearTimeout(handshake));
      socket.once('close', () => clearTimeout(handshake));
    });
    let timer: NodeJS.Timeout | undefined;
    if (init.timeoutMs) {
      const ms = init.timeoutMs;
      timer = setTimeout(() => req.destroy(new Error(`timeout awaiting response headers after ${ms / 1000}s`)), ms);
    }
    // A 101 to a request that asked for no upgrade: refused (the request did not ask to leave HTTP).
    req.once('upgrade', (res, socket) => {
      clearTimeout(timer);
      socket.destroy();
      reject(Object.assign(new Error('the backend switched protocols on a request that did not ask to upgrade'), { protocolSwitch: true }));
    });
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(Object.assign(err, { reusedSocket: req.reusedSocket }));
    });
    if (init.body) {
      init.body.once('error', (err) => req.destroy(err));
      init.body.pipe(req);
    } else req.end();
  });
}

/** A GET whose whole body is read, for discovery checks and documents; rejects on a status outside 2xx. */
export async function getBody(dialer: Dialer, target: URL, path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<{ body: Buffer; contentType: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await send(dialer, target, { method: 'GET', path, headers, signal, timeoutMs });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOCUMENT_BYTES) {
      res.destroy();
      throw new Error(`response from ${target.origin}${path} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const status = res.statusCode ?? 0;
  if (status < 200 || status >= 300) throw new Error(`bad status from ${target.origin}${path}: ${status}`);
  return { body: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? '') };
}

/** Go's http.DefaultTransport TLSHandshakeTimeout, which kube's proxy transport keeps. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/** The largest discovery or OpenAPI document read from an extension (kube reads them whole too). */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
