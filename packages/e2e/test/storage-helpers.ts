// Helpers shared by the storage end-to-end tests (crash, etcd outage, two servers): plain-HTTP servers, JSON
// requests that never hang, and a line reader for watch streams.
import { freePort, startServerProcess, type ServerProcess, type StartServerOptions } from '../src/server.js';

/**
 * A kapi-server on a plain-HTTP loopback port (no TLS to set up for fetch). These tests are about storage, not
 * access: they ask for AlwaysAllow explicitly (RBAC, the default, would allow an anonymous client only discovery).
 */
export async function startHttpServer(args: string[] = [], options: StartServerOptions = {}): Promise<ServerProcess> {
  return startServerProcess(['--secure-port=0', `--insecure-port=${await freePort()}`, '--authorization-mode=AlwaysAllow', ...args], options);
}

export interface JsonResponse {
  status: number;
  body: Record<string, any>;
}

/** One JSON request. A server that does not answer within `timeoutMs` fails the request (and the test). */
export async function request(method: string, url: string, body?: unknown, timeoutMs = 30_000): Promise<JsonResponse> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

export const configMap = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

/** Retries `attempt` until it returns a value (not undefined), at most `tries` times, `delayMs` apart. */
export async function eventually<T>(attempt: () => Promise<T | undefined>, tries = 150, delayMs = 200): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  throw new Error(`gave up waiting${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
}

export interface WatchEvent {
  type: string;
  object: Record<string, any>;
}

/** A watch request's events as they arrive; `ended` resolves when the server ends the stream. */
export interface WatchStream {
  events: WatchEvent[];
  ended: Promise<void>;
  next(count: number): Promise<WatchEvent[]>;
  close(): void;
}

export async function watch(url: string): Promise<WatchStream> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  if (res.status !== 200) throw new Error(`watch ${url} answered ${res.status}: ${await res.text()}`);
  const events: WatchEvent[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffered += decoder.decode(value, { stream: true });
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as WatchEvent);
        waiters.forEach((w) => w());
      }
    } catch {
      // closed by us, or the connection broke
    } finally {
      waiters.forEach((w) => w());
    }
  })();
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    events,
    ended,
    next: (count) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length >= count) {
            waiters.delete(check);
            resolve(events.slice(0, count));
          } else if (finished) {
            waiters.delete(check);
            reject(new Error(`the watch ended after ${events.length} of ${count} events: ${JSON.stringify(events)}`));
          }
        };
        waiters.add(check);
        void ended.then(check);
        check();
      }),
    close: () => controller.abort(),
  };
}
