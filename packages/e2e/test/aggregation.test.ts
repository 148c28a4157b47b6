// API aggregation end to end, as a user runs it (README): kapi-server, then wardle-server (an extension server built
// from @kapi/api-wardle) with the main server's kubeconfig, then `kubectl apply -f apps/wardle-server/deploy/`.
// Everything after goes through the main server only, with kubectl 1.32 and 1.33, the Python client and
// @kubernetes/client-node; RBAC users are decided by the main server's RBAC (through the SubjectAccessReviews the
// extension sends); the extension refuses requests that do not come from the front proxy; stopping it gives 503
// and Available=False, starting it again serves again.
import * as k8s from '@kubernetes/client-node';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { repoRoot } from '../src/groups.js';
import { kubectlBinaries, kubectlOf, runAsync as run } from '../src/kubectl.js';
import { freePort, startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const kubectls = kubectlBinaries();
const WARDLE = 'apps/wardle-server/dist/main.js';


/** One HTTPS request straight to a server (its self-signed certificate not checked). */
function direct(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { rejectUnauthorized: false, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!kubectls.length)('aggregation: kapi-server in front of wardle-server', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-aggregation-'));
  let main: ServerProcess;
  let wardle: ServerProcess;
  let wardlePort: number;
  let alice: string;
  let bob: string;
  const { kubectl, ok } = kubectlOf(() => main);
  const kubectlMain = kubectls[0].path;
  const startWardle = () =>
    startServerProcess(['--kubeconfig', main.kubeconfig, '--secure-port', String(wardlePort)], { binary: WARDLE, dataDir: join(dir, 'wardle') });
  const available = async () => (await ok(kubectlMain, 'get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', "jsonpath={.status.conditions[?(@.type=='Available')].status}")).trim();
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 300; i++) {
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`not met in 30 s: ${what}`);
  };

  beforeAll(async () => {
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,uid-alice,readers\nbob-token,bob,uid-bob,\n');
    main = await startServerProcess([`--token-auth-file=${tokens}`]);
    wardlePort = await freePort();
    wardle = await startWardle();
    // The README's manifests, at the port this wardle-server listens on.
    const deploy = join(dir, 'deploy');
    spawnSync('mkdir', ['-p', deploy]);
    for (const file of readdirSync(join(repoRoot, 'apps/wardle-server/deploy'))) {
      const text = readFileSync(join(repoRoot, 'apps/wardle-server/deploy', file), 'utf8');
      writeFileSync(join(deploy, file), text.replaceAll('port: 8443', `port: ${wardlePort}`));
    }
    await ok(kubectlMain, 'apply', '-f', deploy);
    await ok(kubectlMain, 'wait', '--for=condition=Available', 'apiservice/v1alpha1.wardle.example.com', 'apiservice/v1beta1.wardle.example.com', '--timeout=60s');
    await ok(kubectlMain, 'create', 'namespace', 'agg');
    // alice may read flunders in `agg` (a Role in the main server); bob may do nothing.
    await ok(kubectlMain, 'create', 'role', 'flunder-reader', '-n', 'agg', '--verb=get,list,watch', '--resource=flunders.wardle.example.com');
    await ok(kubectlMain, 'create', 'rolebinding', 'alice-reads', '-n', 'agg', '--role=flunder-reader', '--user=alice');
    const config = parseYaml(readFileSync(main.kubeconfig, 'utf8'));
    const tokenConfig = (token: string) => {
      const path = join(dir, `${token}.kubeconfig`);
      writeFileSync(path, stringifyYaml({ ...config, users: [{ name: config.users[0].name, user: { token } }] }));
      return path;
    };
    alice = tokenConfig('alice-token');
    bob = tokenConfig('bob-token');
  }, 120_000);
  afterAll(async () => {
    await wardle?.stop();
    await main?.stop();
  });

  it('lists the APIServices: the Local ones and wardle behind its Service, Available', async () => {
    const table = await ok(kubectlMain, 'get', 'apiservices');
    expect(table).toMatch(/v1\.apps\s+Local\s+True/);
    expect(table).toMatch(/v1alpha1\.wardle\.example\.com\s+wardle\/api\s+True/);
  });

  for (const { name, path } of kubectls) {
    it(`${name}: create, get (Table), apply, server-side apply, patch and delete flunders through the main server`, async () => {
      const ns = `k-${name.replace(/\W/g, '')}`;
      await ok(path, 'create', 'namespace', ns);
      const manifest = join(dir, `${ns}.yaml`);
      writeFileSync(manifest, 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: f1\nspec:\n  reference: f0\n');
      expect(await ok(path, 'apply', '-n', ns, '-f', manifest)).toContain('flunder.wardle.example.com/f1 created');
      expect(await ok(path, 'apply', '-n', ns, '-f', manifest)).toContain('unchanged');
      const table = await ok(path, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', ns);
      expect(table.split('\n')[0]).toMatch(/^NAME\s+CREATED AT/);
      expect(table).toMatch(/^f1\s/m);
      writeFileSync(manifest, 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: f2\nspec:\n  reference: f1\n');
      expect(await ok(path, 'apply', '--server-side', '-n', ns, '-f', manifest)).toContain('serverside-applied');
      await ok(path, 'patch', 'flunders.v1alpha1.wardle.example.com', 'f2', '-n', ns, '--type=merge', '-p', '{"metadata":{"labels":{"patched":"yes"}}}');
      const f2 = JSON.parse(await ok(path, 'get', 'flunders.v1alpha1.wardle.example.com', 'f2', '-n', ns, '-o', 'json', '--show-managed-fields'));
      expect(f2.metadata.labels).toEqual({ patched: 'yes' });
      expect(f2.metadata.managedFields.map((m: { manager: string; operation: string }) => `${m.manager} ${m.operation}`)).toEqual(
        expect.arrayContaining(['kubectl Apply', 'kubectl-patch Update']),
      );
      expect(await ok(path, 'delete', 'flunders.v1alpha1.wardle.example.com', 'f1', 'f2', '-n', ns)).toContain('deleted');
      expect((await ok(path, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', ns, '-o', 'name')).trim()).toBe('');
    });
  }

  it('kubectl api-resources and kubectl explain see what wardle-server serves', async () => {
    const resources = await ok(kubectlMain, 'api-resources', '--api-group=wardle.example.com');
    expect(resources).toMatch(/flunders\s+wardle\.example\.com\/v1beta1\s+true\s+Flunder/);
    expect(resources).toMatch(/fischers\s+wardle\.example\.com\/v1alpha1\s+false\s+Fischer/);
    expect(await ok(kubectlMain, 'explain', 'flunder')).toMatch(/GROUP:\s+wardle\.example\.com\nKIND:\s+Flunder\nVERSION:\s+v1beta1/);
    const explain = await ok(kubectlMain, 'explain', 'flunders.spec', '--api-version=wardle.example.com/v1alpha1');
    expect(explain).toContain('KIND:       Flunder');
    expect(explain).toContain('reference');
  });

  it('kubectl watches flunders through the proxy as they are made', async () => {
    const watch = run(kubectlMain, ['--kubeconfig', main.kubeconfig, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', 'agg', '--watch', '--output-watch-events', '--request-timeout=8s']);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const manifest = join(dir, 'watched.yaml');
    writeFileSync(manifest, 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: watched\n');
    await ok(kubectlMain, 'create', '-n', 'agg', '-f', manifest);
    const out = await watch;
    expect(out.stdout).toMatch(/ADDED\s+watched/);
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes: create, replace, patch, list, watch and delete a flunder', async () => {
    const res = await run(PYTHON, [join(import.meta.dirname, 'python/aggregation.py'), main.kubeconfig, 'agg']);
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.created).toBe('py-flunder');
    expect(out.replaced).toEqual({ replaced: 'yes' });
    expect(out.patched).toEqual({ replaced: 'yes', patched: 'yes' });
    expect(out.listed).toContain('py-flunder');
    expect(out.watched).toContainEqual(['ADDED', 'py-flunder']);
    expect(out.afterDelete).toBe(404);
  });

  it('@kubernetes/client-node: create, list and watch flunders', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(main.kubeconfig);
    const api = kc.makeApiClient(k8s.CustomObjectsApi);
    const group = 'wardle.example.com';
    const version = 'v1alpha1';
    await api.createNamespacedCustomObject({ group, version, namespace: 'agg', plural: 'flunders', body: { apiVersion: `${group}/${version}`, kind: 'Flunder', metadata: { name: 'node-flunder' } } });
    const list = (await api.listNamespacedCustomObject({ group, version, namespace: 'agg', plural: 'flunders' })) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((o) => o.metadata.name)).toContain('node-flunder');
    const seen: string[] = [];
    const request = await new k8s.Watch(kc).watch(`/apis/${group}/${version}/namespaces/agg/flunders`, {}, (type, obj) => seen.push(`${type} ${obj.metadata.name}`), () => {});
    await until(async () => seen.includes('ADDED node-flunder'), 'client-node watch event');
    request.abort();
  });

  it("RBAC users are decided by the main server's RBAC, through the extension's SubjectAccessReviews", async () => {
    const asAlice = (...args: string[]) => run(kubectlMain, ['--kubeconfig', alice, ...args]);
    const listed = await asAlice('get', 'flunders.v1alpha1.wardle.example.com', '-n', 'agg', '-o', 'name');
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toContain('flunder.wardle.example.com/watched');
    const denied = await asAlice('delete', 'flunders.v1alpha1.wardle.example.com', 'watched', '-n', 'agg');
    expect(denied.stderr).toContain('User "alice" cannot delete resource "flunders" in API group "wardle.example.com" in the namespace "agg"');
    const other = await asAlice('get', 'flunders.v1alpha1.wardle.example.com', '-n', 'default');
    expect(other.stderr).toContain('cannot list resource "flunders"');
    const asBob = await run(kubectlMain, ['--kubeconfig', bob, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', 'agg']);
    expect(asBob.stderr).toContain('User "bob" cannot list resource "flunders"');
    // alice's token sent straight to wardle-server: it asks the main server who she is (TokenReview) and what she may
    // do (SubjectAccessReview)
    const straight = await direct(wardle.url, '/apis/wardle.example.com/v1alpha1/namespaces/agg/flunders', { authorization: 'Bearer alice-token' });
    expect(straight.status).toBe(200);
    const straightDenied = await direct(wardle.url, '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders', { authorization: 'Bearer alice-token' });
    expect(straightDenied.status).toBe(403);
  });

  it('refuses a request sent straight to wardle-server that claims a user without the front-proxy certificate', async () => {
    const forged = await direct(wardle.url, '/apis/wardle.example.com/v1alpha1/flunders', { 'x-remote-user': 'system:admin', 'x-remote-group': 'system:masters' });
    expect([401, 403]).toContain(forged.status);
    expect(forged.body.kind).toBe('Status');
    expect(forged.body.message).not.toContain('system:admin');
    const badToken = await direct(wardle.url, '/apis/wardle.example.com/v1alpha1/flunders', { authorization: 'Bearer no-such-token' });
    expect(badToken.status).toBe(401);
  });

  it('answers 503 and marks the APIService unavailable while wardle-server is down, and serves again once it is back', async () => {
    await wardle.stop();
    const down = await kubectl(kubectlMain, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', 'agg');
    expect(down.status).not.toBe(0);
    expect(down.stderr).toMatch(/ServiceUnavailable|service unavailable|error trying to reach service/);
    await until(async () => (await available()) === 'False', 'Available=False');
    const reason = await ok(kubectlMain, 'get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', "jsonpath={.status.conditions[?(@.type=='Available')].reason}");
    expect(reason).toBe('FailedDiscoveryCheck');
    expect(await ok(kubectlMain, 'get', 'apiservices')).toMatch(/v1alpha1\.wardle\.example\.com\s+wardle\/api\s+False \(FailedDiscoveryCheck\)/);
    wardle = await startWardle();
    await until(async () => (await available()) === 'True', 'Available=True again');
    expect(await ok(kubectlMain, 'get', 'flunders.v1alpha1.wardle.example.com', '-n', 'agg', '-o', 'name')).toContain('flunder.wardle.example.com/watched');
  });
});
