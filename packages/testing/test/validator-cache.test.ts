// Compiled validators cached for later test processes: what a user's next test process sees.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX, runTestProcess } from './test-process.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-testing-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Objects the server must refuse: values of the wrong type (400, found when decoding, by the type-only validators) and
 * values the kind does not allow (422, by the full validators and the kind's strategy).
 */
const INVALID = [
  ['/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'QUIC' }] }], restartPolicy: 'Sometimes' } }],
  ['/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'Nowhere', ports: [{ port: 80 }] } }],
  ['/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 1 } }, data: { k: 1 } }],
  ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: { finalizers: [7] } }],
] as const;

/** A fresh test process with `cacheDir` as KAPI_TESTING_CACHE_DIR: starts a server, posts INVALID, answers the bodies. */
function testProcess(cacheDir: string): Promise<{ status: number; body: Record<string, unknown> }[]> {
  const script = `
    const { startTestServer } = await import(${JSON.stringify(INDEX)});
    const server = await startTestServer({ listen: false });
    const out = [];
    for (const [path, body] of ${JSON.stringify(INVALID)}) {
      const res = await server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      out.push({ status: res.status, body: await res.json() });
    }
    process.stdout.write(JSON.stringify(out));
    await server.stop();`;
  return runTestProcess(script, cacheDir).then((out) => JSON.parse(out));
}

/** The cached validators, with when each was written. */
const cached = (validators: string) => new Map(readdirSync(validators).map((f) => [f, statSync(join(validators, f)).mtimeMs]));

describe('compiled validators cached for later test processes', () => {
  it('are written by the first process (owner only) and read by the next, which refuses the same objects alike', { timeout: 60_000 }, async () => {
    const cacheDir = join(dir, 'cache');
    const validators = join(cacheDir, 'validators');
    const first = await testProcess(cacheDir);
    expect(first.map((r) => r.status)).toEqual([422, 422, 400, 400]);
    expect(first[0].body.message).toContain('spec.restartPolicy: Unsupported value: "Sometimes"');
    expect(first[1].body.message).toContain('spec.type: Unsupported value: "Nowhere"');
    expect(first[2].body.message).toContain('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');

    expect(statSync(validators).mode & 0o777).toBe(0o700);
    const written = cached(validators);
    // Namespace and ServiceAccount (the server's own first objects), then Pod, Service and ConfigMap.
    expect(written.size).toBeGreaterThanOrEqual(5);
    for (const file of written.keys()) expect(statSync(join(validators, file)).mode & 0o777).toBe(0o600);

    const second = await testProcess(cacheDir);
    expect(second).toEqual(first);
    expect(cached(validators)).toEqual(written); // nothing compiled and written again

    // Without a cache the answers are the same, and nothing is written.
    const off = await testProcess('off');
    expect(off).toEqual(first);
    expect(existsSync(join(dir, 'off'))).toBe(false);
  });
});
