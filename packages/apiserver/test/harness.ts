import { group as apps, plugin as appsPlugin } from '@kapi/api-apps';
import { group as authentication } from '@kapi/api-authentication';
import { group as authorization } from '@kapi/api-authorization';
import { group as autoscaling, plugin as autoscalingPlugin } from '@kapi/api-autoscaling';
import { group as coordination, plugin as coordinationPlugin } from '@kapi/api-coordination';
import { group as core, plugin as corePlugin } from '@kapi/api-core';
import { group as policy, plugin as policyPlugin } from '@kapi/api-policy';
import { group as rbac, plugin as rbacPlugin } from '@kapi/api-rbac';
import { group as wardle, plugin as wardlePlugin } from '@kapi/api-wardle';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import type { GroupDefinition } from '@kapi/apimachinery';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApiServer, groupPlugin, type ApiServer, type ApiServerOptions, type GroupPlugin } from '../src/index.js';

export const ALL_GROUPS = [core, apps, autoscaling, policy, coordination, rbac, authorization, authentication, wardle];

/** Every group as its package's plugin (the behaviour of its kinds), or as plain data where it has none. */
export const ALL_PLUGINS: GroupPlugin[] = [
  corePlugin,
  appsPlugin,
  autoscalingPlugin,
  policyPlugin,
  coordinationPlugin,
  rbacPlugin,
  groupPlugin(authorization),
  groupPlugin(authentication),
  wardlePlugin,
];

/**
 * A group without the behaviour of its kinds (no strategies), but with what serving it needs: the conversions of
 * its package's plugin (wardle's Flunder and autoscaling's HorizontalPodAutoscaler are served in two versions).
 */
export const dataPlugin = (g: GroupDefinition): GroupPlugin => {
  const conversions = ALL_PLUGINS.find((p) => p.definition === g)?.conversions;
  return conversions ? { definition: g, conversions } : groupPlugin(g);
};

export interface Harness {
  server: ApiServer;
  /** The server's storage, for tests that must write what no request could (a corrupt value). */
  storage: StorageBackend;
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

/**
 * A started server with every group, driven in-process through its fetch handler: on fresh in-memory storage, or
 * on `options.storage`. `options` passes request limits, an audit sink, watch cache settings, admission plugins and
 * plugins (instead of every group's plugin) through.
 */
export async function startHarness(
  featureGates: Record<string, boolean> = {},
  options: Partial<Pick<ApiServerOptions, 'log' | 'tracerProvider' | 'authenticators' | 'limits' | 'audit' | 'auditPolicy' | 'watchCache' | 'storageHistoryBytes' | 'compactionIntervalMs' | 'storage' | 'plugins' | 'admission' | 'encryption'>> = {},
): Promise<Harness> {
  const storage = options.storage ?? createMemoryBackend();
  const server = createApiServer({ plugins: ALL_PLUGINS, featureGates, ...options, storage });
  await server.start();
  const harness: Harness = {
    server,
    storage,
    async req(method, path, body, headers = {}) {
      const init: { method: string; headers: Record<string, string>; body?: string } = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = body instanceof Uint8Array || typeof body === 'string' ? (body as string) : JSON.stringify(body);
        if (!headers['content-type']) init.headers['content-type'] = 'application/json';
      }
      const res = await server.fetch(new Request(`http://kapi.test${path}`, init));
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
  };
  return harness;
}

/**
 * Waits for what the server writes by itself after it starts (the core group's `default` ServiceAccount in every
 * namespace), so tests that count events, versions or audit records see only their own writes. Read from storage,
 * not through requests: nothing is audited or counted.
 */
export async function settled(h: Harness): Promise<void> {
  const count = async (prefix: string) => (await h.storage.list({ prefix })).kvs.length;
  for (let i = 0; i < 200; i++) {
    if ((await count('/registry/serviceaccounts/')) >= (await count('/registry/namespaces/'))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const configMap = (name: string, data: Record<string, string> = { a: '1' }, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});

export interface WatchEventLine {
  type: string;
  object: any;
}

/** An open JSON watch: events as they arrive, `next(n)` for the next n, `ended` once the server ends the stream. */
export interface OpenWatch {
  status: number;
  headers: Headers;
  events: WatchEventLine[];
  next(count: number): Promise<WatchEventLine[]>;
  /** Every event until the server ends the stream. */
  rest(): Promise<WatchEventLine[]>;
  close(): void;
}

/** Starts a watch request in-process and reads its JSON lines only when asked to (a slow client reads late). */
export async function openWatch(h: Harness, path: string, headers: Record<string, string> = {}): Promise<OpenWatch> {
  const controller = new AbortController();
  const res = await h.server.fetch(new Request(`http://kapi.test${path}`, { signal: controller.signal, headers }));
  const events: WatchEventLine[] = [];
  let read = 0;
  let buffered = '';
  let done = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const pump = async (): Promise<boolean> => {
    if (done) return false;
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return false;
    }
    buffered += decoder.decode(chunk.value, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      events.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
    return true;
  };
  return {
    status: res.status,
    headers: res.headers,
    events,
    async next(count) {
      while (events.length < read + count) {
        if (!(await pump())) throw new Error(`the watch ended after ${events.length} events: ${JSON.stringify(events.map((e) => e.type))}`);
      }
      const out = events.slice(read, read + count);
      read += count;
      return out;
    },
    async rest() {
      while (await pump());
      const out = events.slice(read);
      read = events.length;
      return out;
    },
    close: () => controller.abort(),
  };
}

/** Names of the objects in watch events, as `TYPE name`. */
export const eventNames = (events: WatchEventLine[]) => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.metadata?.resourceVersion}`);

/** The heap in use after two full garbage collections (the tests of what the server holds measure with it). */
export function heapUsedAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
