import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend, type StorageBackend } from '@kapi/storage';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { apiextensionsPlugin } from '../src/index.js';

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A test CRD from test/fixtures, as an object. */
export const fixture = (name: string): any => parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'));

export interface Harness {
  server: ApiServer;
  storage: StorageBackend;
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** Waits until `check` holds (polling), failing after a few seconds. */
  until<T>(check: () => Promise<T | undefined | false>): Promise<T>;
  /** Creates a CRD and waits until it is Established. */
  establish(crd: any): Promise<any>;
}

/** A started server with the core group and CustomResourceDefinitions, driven through its fetch handler. */
export async function startHarness(storage: StorageBackend = createMemoryBackend()): Promise<Harness> {
  const server = createApiServer({ storage, plugins: [createCorePlugin(), apiextensionsPlugin()] });
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
  return {
    server,
    storage,
    req,
    until,
    async establish(crd) {
      const created = await req('POST', CRDS, crd);
      if (created.status !== 201) throw new Error(`CRD not created: ${JSON.stringify(created.body)}`);
      return until(async () => {
        const got = await req('GET', `${CRDS}/${crd.metadata.name}`);
        return got.body.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True') && got.body;
      });
    },
  };
}
