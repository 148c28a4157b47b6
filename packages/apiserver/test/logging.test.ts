import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.js';
import { configMap, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.server.stop();
  h = undefined;
});

describe('the HTTP log', () => {
  it('writes one line per request at -v=3 with verb, URI, user agent, audit ID and code', async () => {
    const lines: string[] = [];
    h = await startHarness({}, { log: createLogger({ format: 'json', verbosity: 3, stream: { write: (l: string) => lines.push(l) } }) });
    lines.length = 0;
    const created = await h.req('POST', '/api/v1/namespaces/default/configmaps', configMap('a'), { 'user-agent': 'kubectl/v1.33.1' });
    const missing = await h.req('GET', '/api/v1/namespaces/default/configmaps/nope?pretty=1');
    const http = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'HTTP');
    expect(http).toEqual([
      expect.objectContaining({ caller: 'httplog', v: 3, verb: 'POST', URI: '/api/v1/namespaces/default/configmaps', userAgent: 'kubectl/v1.33.1', 'audit-ID': created.headers.get('audit-id'), resp: 201 }),
      expect.objectContaining({ verb: 'GET', URI: '/api/v1/namespaces/default/configmaps/nope?pretty=1', 'audit-ID': missing.headers.get('audit-id'), resp: 404 }),
    ]);
    expect(http[0].latency).toMatch(/^\d+(\.\d+)?(µs|ms|s)$/);
  });

  it('writes nothing below -v=3', async () => {
    const lines: string[] = [];
    h = await startHarness({}, { log: createLogger({ verbosity: 2, stream: { write: (l: string) => lines.push(l) } }) });
    lines.length = 0;
    await h.req('GET', '/api/v1/namespaces');
    expect(lines).toEqual([]);
  });
});

describe('--shutdown-send-retry-after', () => {
  it('answers new requests 429 with Retry-After and Connection: close, health and metrics aside', async () => {
    h = await startHarness();
    h.server.sendRetryAfter();
    const refused = await h.req('GET', '/api/v1/namespaces');
    expect(refused.status).toBe(429);
    expect(refused.body).toBe('The apiserver is shutting down, please try again later.\n');
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('audit-id')).toBeTruthy();
    expect((await h.req('GET', '/livez')).status).toBe(200);
    expect((await h.req('GET', '/metrics')).status).toBe(200);
    expect((await h.req('GET', '/api/v1/namespaces', undefined, { 'user-agent': 'kube-apiserver/v1.33.0' })).status).toBe(200);
  });
});
