import { createCorePlugin, type CorePluginOptions } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { loadDataPlugins } from './groups.js';

/** A JSON answer of the in-process server: its status and parsed body. */
export interface JsonResponse {
  status: number;
  body: any;
}

/**
 * An in-process server on memory storage with the core group's own behaviour (`createCorePlugin(options)`: its
 * strategies, admission plugins and controllers) and every other group as data, and a JSON request helper for it.
 */
export async function startCoreServer(options: CorePluginOptions = {}): Promise<{ server: ApiServer; req: (method: string, path: string, body?: unknown, contentType?: string) => Promise<JsonResponse> }> {
  const others = (await loadDataPlugins()).filter((p) => p.definition.group !== '');
  const server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(options), ...others] });
  await server.start();
  const req = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const headers = body === undefined ? undefined : { 'content-type': contentType };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: res.status, body: (await res.json()) as any };
  };
  return { server, req };
}
