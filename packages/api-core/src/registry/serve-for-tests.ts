// Test-only: a server with the core group, in memory, and a JSON request helper (not exported by the package).
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { createCorePlugin } from './plugin.js';

export interface TestServer {
  server: ApiServer;
  req(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function serveCore(namespace = 'ns'): Promise<TestServer> {
  const server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin()] });
  await server.start();
  const req: TestServer['req'] = async (method, path, body) => {
    const headers = { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json', accept: 'application/json' };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  if ((await req('POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status !== 201) throw new Error('namespace not created');
  return { server, req };
}
