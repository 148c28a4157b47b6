import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A probe's verdict (kube's probe.Result). */
export type ProbeResult = 'Success' | 'Warning' | 'Failure' | 'Unknown';

/** What one check of a component found: kube's DoServerCheck's (result, message, error). */
export interface ProbeOutcome {
  result: ProbeResult;
  message: string;
  /** Why the check could not be made at all; empty when it was made (even when it failed). */
  error: string;
}

export interface HttpProbeOptions {
  /** The whole request's time limit (kube's componentstatus probeTimeOut: 20 s). */
  timeoutMs: number;
  /** `kube-probe/<major>.<minor>`, as kube's probe requests say. */
  userAgent: string;
}

/** kube's probes read at most 10 KiB of a body (pkg/probe/http maxRespBodyLength); the rest is dropped. */
const MAX_BODY_BYTES = 10 * 1024;
/** Go's http.Client gives up after 10 redirects. */
const MAX_REDIRECTS = 10;

/** `host:port` as Go writes a dialled address (net.JoinHostPort: IPv6 in brackets). */
const hostPort = (host: string, port: number | string) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * A Node socket error as Go's net/http reports it (the text kube puts in the component's message), so a component
 * that is down reads as it does on kube: `dial tcp 127.0.0.1:10259: connect: connection refused`.
 */
function goNetError(err: NodeJS.ErrnoException & { address?: string; port?: number }, url: URL): string {
  const target = hostPort(err.address ?? url.hostname.replace(/^\[|\]$/g, ''), err.port ?? (url.port || (url.protocol === 'https:' ? 443 : 80)));
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${target}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${target}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${target}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${target}: i/o timeout`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET':
      return 'read: connection reset by peer';
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'http: server gave HTTP response to HTTPS client';
    default:
      return err.message;
  }
}

class ProbeTimeout extends Error {
  constructor() {
    super('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
  }
}

/** One GET, its status, location and up to MAX_BODY_BYTES of body. */
function get(url: URL, options: HttpProbeOptions, signal: AbortSignal): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'GET',
        headers: { 'User-Agent': options.userAgent, Accept: '*/*' },
        // kube-apiserver probes the scheduler and controller-manager with InsecureSkipVerify: their serving
        // certificates are usually self-signed.
        rejectUnauthorized: false,
        signal,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_BODY_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
          size += Math.min(chunk.length, MAX_BODY_BYTES - size);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * kube's HTTP probe (pkg/probe/http DoHTTPProbe, as componentstatus' HttpServer runs it): a GET following
 * redirects; 2xx is Success with the body as message; 3xx left over is Warning; 4xx and 5xx are Failure with
 * `HTTP probe failed with statuscode: <code>` (never the body); a request that fails (refused, timed out) is a
 * Failure whose message is Go's error text, `Get "<url>": <why>`. None of them is an error: the check was made.
 */
export async function httpProbe(target: string, options: HttpProbeOptions): Promise<ProbeOutcome> {
  let url = new URL(target);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ProbeTimeout()), options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      let res;
      try {
        res = await get(url, options, controller.signal);
      } catch (err) {
        const why = controller.signal.aborted ? (controller.signal.reason as Error).message : goNetError(err as NodeJS.ErrnoException, url);
        return { result: 'Failure', message: `Get ${JSON.stringify(url.href)}: ${why}`, error: '' };
      }
      if (res.status >= 300 && res.status < 400 && res.location) {
        if (redirects + 1 > MAX_REDIRECTS) {
          return { result: 'Failure', message: `Get ${JSON.stringify(new URL(res.location, url).href)}: stopped after ${MAX_REDIRECTS} redirects`, error: '' };
        }
        url = new URL(res.location, url);
        continue;
      }
      if (res.status >= 200 && res.status < 300) return { result: 'Success', message: res.body, error: '' };
      if (res.status >= 300 && res.status < 400) return { result: 'Warning', message: `Probe terminated redirects, Response body: ${res.body}`, error: '' };
      return { result: 'Failure', message: `HTTP probe failed with statuscode: ${res.status}`, error: '' };
    }
  } finally {
    clearTimeout(timer);
  }
}
