// kube-aggregator's proxyHandler: a request for a group version an APIService sends to a Service goes to the
// extension server behind it, as the authenticated user (front-proxy headers), streaming both ways.
import { Readable } from 'node:stream';
import { newInternalError, newServiceUnavailable, StatusError } from '@kapi/apimachinery';
import type { RequestDelegate } from '@kapi/apiserver';
import type { ServiceAddress } from '@kapi/apiserver';
import { send, type Dialer } from '../transport.js';
import { answerBody } from './body.js';
import { answerHeaders, proxiedRequestHeaders } from './headers.js';

/** What the proxy needs from the aggregator around it. */
export interface ProxyTarget {
  /** Whether the APIService is Available now (kube answers 503 without trying when it is not). */
  available(): boolean;
  resolve(): Promise<ServiceAddress>;
  dialer(): Dialer;
  /** Told when the extension could not be reached, so its availability is checked again at once. */
  unreachable(error: Error): void;
  /** Aborted when the APIService stops being available: requests still waiting for an answer end with 503. */
  signal(): AbortSignal;
  /** How long to wait for the extension's answer to start (the server's request timeout). */
  timeoutMs: number;
}

const NO_BODY_STATUS = new Set([204, 205, 304]);

/** A Status with code 502: the extension answered something the aggregator will not pass on. */
const badGateway = (message: string) => new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 502 });

/**
 * Whether a request is long-running the way kube's aggregator counts it for the request timeout: a watch (`?watch=`
 * true, or the deprecated `/watch/` paths). Its answer may last as long as it likes; every other one gets the
 * server's request timeout.
 */
function isWatch(url: URL): boolean {
  const watch = url.searchParams.get('watch');
  return watch === 'true' || watch === '1' || /^\/apis?\/(?:[^/]+\/)?[^/]+\/watch\//.test(url.pathname);
}

/** The handler of every request for the APIService's group version. */
export function proxyHandler(target: ProxyTarget): RequestDelegate {
  return async (request, user) => {
    if (!target.available()) throw newServiceUnavailable('service unavailable');
    if (request.headers.get('upgrade')) throw newServiceUnavailable('upgrade requests (exec, attach, port-forward) are not proxied to extension servers');
    let headers;
    try {
      headers = proxiedRequestHeaders(request.headers, user);
    } catch (err) {
      throw newInternalError(err);
    }
    const resolution = await target.resolve();
    if (!('url' in resolution)) throw newServiceUnavailable('service unavailable');
    const url = new URL(request.url);
    const watch = isWatch(url);
    const abort = new AbortController();
    const onClientGone = () => abort.abort(request.signal.reason);
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const unavailable = target.signal();
    const onUnavailable = () => abort.abort(new Error('the APIService became unavailable'));
    unavailable.addEventListener('abort', onUnavailable, { once: true });
    // Answers other than a watch's must be complete within the request timeout, headers and body alike.
    const deadline = watch ? undefined : AbortSignal.timeout(target.timeoutMs);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    try {
      const res = await send(target.dialer(), resolution.url, {
        method: request.method,
        path: url.pathname + url.search,
        headers,
        body: hasBody ? Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) : undefined,
        signal: abort.signal,
        timeoutMs: target.timeoutMs,
      });
      unavailable.removeEventListener('abort', onUnavailable);
      const status = res.statusCode ?? 502;
      // kube's --aggregator-reject-forwarding-redirect (on by default): a client following the extension's redirect
      // would take its credentials there.
      if (status >= 300 && status <= 399 && res.headers.location) {
        res.destroy();
        throw badGateway('the backend attempted to redirect this request, which is not permitted');
      }
      const body = NO_BODY_STATUS.has(status) || request.method === 'HEAD' ? null : answerBody(res, { endsCleanly: watch, deadline });
      if (!body) res.resume();
      return new Response(body, { status, statusText: res.statusMessage, headers: answerHeaders(res.headers) });
    } catch (err) {
      unavailable.removeEventListener('abort', onUnavailable);
      request.signal.removeEventListener('abort', onClientGone);
      // a StatusError (a body too large for the server, a redirect refused) is answered as it is
      if ((err as { status?: unknown }).status) throw err;
      const error = err as Error & { protocolSwitch?: boolean };
      if (error.protocolSwitch) throw badGateway(error.message);
      if (!request.signal.aborted) target.unreachable(error);
      throw newServiceUnavailable(`error trying to reach service: ${unavailable.aborted ? 'the APIService became unavailable' : error.message}`);
    }
  };
}
