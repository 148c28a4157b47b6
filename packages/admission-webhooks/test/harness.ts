import { plugin as apps } from '@kapi/api-apps';
import { plugin as autoscaling } from '@kapi/api-autoscaling';
import { createCorePlugin } from '@kapi/api-core';
import { group as authentication } from '@kapi/api-authentication';
import { createApiServer, groupPlugin, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { admissionWebhooksPlugin } from '../src/index.js';

export interface Harness {
  server: ApiServer;
  /** The audit log's lines (every request at Metadata level). */
  auditLines: string[];
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** Waits until `check` holds (polling), failing after a few seconds. */
  until<T>(check: () => Promise<T | undefined | false>): Promise<T>;
}

/** A started server with the core and apps groups and dynamic admission, driven through its fetch handler. */
export async function startHarness(): Promise<Harness> {
  const auditLines: string[] = [];
  const server = createApiServer({ storage: createMemoryBackend(), audit: { write: (line) => void auditLines.push(line) }, plugins: [createCorePlugin(), apps, autoscaling, groupPlugin(authentication), admissionWebhooksPlugin()] });
  await server.start();
  const req: Harness['req'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
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
  };
  const until: Harness['until'] = async (check) => {
    for (let i = 0; i < 100; i++) {
      const value = await check();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('condition not met in 5 s');
  };
  return { server, auditLines, req, until };
}
