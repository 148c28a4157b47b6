// kapi-server's build compiles the validators a first start needs (dist/validators/, by prebuild-validators.ts): a
// first start of the built server loads them and compiles none, so ajv itself is not even loaded; a kind the build
// did not compile for is compiled when first written, as before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-prebuilt-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A first start of the built server in a process of its own; what it had loaded, and a write of another kind. */
const SCRIPT = `
import { createRequire } from 'node:module';
const { createKapiApiServer, parseFlags } = await import(${JSON.stringify(join(dist, 'index.js'))});
const ajvLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((f) => /[\\\\/]ajv[\\\\/]dist[\\\\/]core\\.js$/.test(f));
const { config } = parseFlags(['--storage-backend=memory', '--data-dir=' + process.argv[1], '--authorization-mode=AlwaysAllow']);
const server = await createKapiApiServer(config, () => {});
await server.start();
const afterStart = ajvLoaded();
const get = await server.fetch(new Request('http://kapi/api/v1/namespaces/kube-system'));
const post = (body) => server.fetch(new Request('http://kapi/apis/apps/v1/namespaces/default/deployments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
const bad = await post({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 'two' } });
await server.stop();
process.stdout.write(JSON.stringify({ afterStart, namespace: get.status, deployment: bad.status, message: (await bad.json()).message, afterDeployment: ajvLoaded() }));
`;

describe('validators prebuilt by the build', () => {
  it('are there for the kinds a first start writes', () => {
    expect(readdirSync(join(dist, 'validators')).filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(10);
  });

  it('serve a first start, which compiles no validator; another kind is compiled when first written', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT, dataDir], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out).toMatchObject({ afterStart: false, namespace: 200, deployment: 400, afterDeployment: true });
    expect(out.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });
});
