// CustomResourceDefinitions through real clients: kubectl (apply, wait, get with printer columns and categories,
// scale, explain, patch, delete), the Python client's CustomObjectsApi and a @kubernetes/client-node informer, on
// a CRD written here and on real ones nobody here wrote (Gateway API, cert-manager), across a restart.
import * as k8s from '@kubernetes/client-node';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner, type KubectlResult } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
const kubectl = kubectlBinaries()[0];
const CRONTAB_CRD = join(import.meta.dirname, 'manifests', 'crontab-crd.yaml');
const CRDS = join(import.meta.dirname, 'crds');
const yamlFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(dir, f));
const tmp = mkdtempSync(join(tmpdir(), 'kapi-crd-'));
let files = 0;
/** A manifest written to a file, for `kubectl apply -f`. */
const manifest = (text: string) => {
  const path = join(tmp, `m${files++}.yaml`);
  writeFileSync(path, text);
  return path;
};
/** kubectl as a child process this one does not wait on synchronously (so a webhook served here can answer). */
const runAsync = (...args: string[]): Promise<KubectlResult> =>
  new Promise((resolve) => {
    const child = spawn(kubectl!.path, ['--kubeconfig', kubeconfigPath, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
let kubeconfigPath = '';
const cronTab = (name: string, spec: string) =>
  manifest(`apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n${spec.replace(/^/gm, '  ')}\n`);

describe.skipIf(!kubectl)('CustomResourceDefinitions with kubectl and client libraries', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let run: (...args: string[]) => KubectlResult;
  let ok: (...args: string[]) => string;
  beforeAll(async () => {
    writeFileSync(join(tmp, 'tokens.csv'), 'bob-token,bob,uid-bob\n');
    server = await startServerProcess([`--token-auth-file=${join(tmp, 'tokens.csv')}`]);
    kubeconfigPath = server.kubeconfig;
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
    ok = (...args) => kubectlOk(run, ...args);
    ok('apply', '-f', CRONTAB_CRD);
    ok('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s');
    ok('create', 'namespace', 'cron');
  }, 60_000);
  afterAll(async () => server?.stop());

  it('kubectl serves the custom resource like a built-in: api-resources, apply, get with printer columns and categories, scale, explain', () => {
    const row = ok('api-resources', '--api-group=stable.example.com', '-o', 'wide').trim().split('\n')[1].split(/\s+/);
    expect(row).toEqual(['crontabs', 'ct', 'stable.example.com/v1', 'true', 'CronTab', 'create,delete,deletecollection,get,list,patch,update,watch', 'all']);
    // An unknown field is pruned (kubectl's strict validation is off), the schema's default filled in.
    expect(ok('apply', '-n', 'cron', '--validate=false', '-f', cronTab('nightly', 'cronSpec: "0 3 * * *"\nimage: backup\nunknownField: x'))).toContain('crontab.stable.example.com/nightly created');
    const obj = JSON.parse(ok('get', 'ct', 'nightly', '-n', 'cron', '-o', 'json'));
    expect(obj.spec).toEqual({ cronSpec: '0 3 * * *', image: 'backup', replicas: 1 });
    const table = ok('get', 'ct', '-n', 'cron').trim().split('\n').map((l) => l.split(/\s{2,}/));
    expect(table[0]).toEqual(['NAME', 'SPEC', 'REPLICAS', 'AGE']);
    expect(table[1].slice(0, 3)).toEqual(['nightly', '0 3 * * *', '1']);
    expect(ok('get', 'all', '-n', 'cron')).toContain('crontab.stable.example.com/nightly');
    ok('scale', 'ct/nightly', '-n', 'cron', '--replicas=3');
    expect(ok('get', 'crontab', 'nightly', '-n', 'cron', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}')).toBe('3 2');
    const explain = ok('explain', 'crontab.spec.replicas');
    expect(explain).toContain('FIELD: replicas <integer>');
    // kubectl's strict validation is the server's: the unknown field is refused.
    const strict = run('apply', '-n', 'cron', '-f', cronTab('strict', 'cronSpec: "0 3 * * *"\nunknownField: x'));
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toContain('unknown field "spec.unknownField"');
  });

  it('kubectl shows the schema\'s own messages for invalid objects, and refuses a strategic merge patch', () => {
    const res = run('apply', '-n', 'cron', '-f', cronTab('invalid', 'cronSpec: "0 3 * * *"\nreplicas: 20\ncolor: purple'));
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10');
    expect(res.stderr).toContain('spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"');
    const smp = run('patch', 'ct', 'nightly', '-n', 'cron', '--type=strategic', '-p', '{"spec":{"image":"x"}}');
    expect(smp.status).not.toBe(0);
    expect(smp.stderr).toContain('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    ok('patch', 'ct', 'nightly', '-n', 'cron', '--type=merge', '-p', '{"spec":{"image":"merged"}}');
    expect(ok('get', 'ct', 'nightly', '-n', 'cron', '-o', 'jsonpath={.spec.image}')).toBe('merged');
  });

  it('RBAC decides who reads and writes custom resources, and who may define them', () => {
    const admin = JSON.parse(ok('config', 'view', '--raw', '-o', 'json'));
    admin.users = [{ name: 'bob', user: { token: 'bob-token' } }];
    admin.contexts[0].context.user = 'bob';
    const bobConfig = join(tmp, 'bob.kubeconfig');
    writeFileSync(bobConfig, JSON.stringify(admin));
    const asBob = kubectlRunner(kubectl!.path, bobConfig);
    const listed = asBob('get', 'ct', '-n', 'cron');
    expect(listed.stderr).toContain('crontabs.stable.example.com is forbidden: User "bob" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "cron"');
    const defined = asBob('apply', '-f', CRONTAB_CRD);
    expect(defined.status).not.toBe(0);
    expect(defined.stderr).toContain('User "bob" cannot');
    ok('create', 'role', 'crontab-reader', '-n', 'cron', '--verb=get,list', '--resource=crontabs.stable.example.com');
    ok('create', 'rolebinding', 'bob-reads-crontabs', '-n', 'cron', '--role=crontab-reader', '--user=bob');
    expect(kubectlOk(asBob, 'get', 'ct', '-n', 'cron', '-o', 'name')).toContain('crontab.stable.example.com/nightly');
    const deleted = asBob('delete', 'ct', 'nightly', '-n', 'cron');
    expect(deleted.stderr).toContain('User "bob" cannot delete resource "crontabs" in API group "stable.example.com" in the namespace "cron"');
    expect(asBob('get', 'ct', '-n', 'default').stderr).toContain('cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"');
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes CustomObjectsApi creates, reads, lists, patches, scales, replaces and deletes', () => {
    ok('create', 'namespace', 'py');
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/custom_objects.py'), server.kubeconfig, 'py'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      created: { name: 'py', replicas: 1, generation: 1 },
      got: { cronSpec: '*/5 * * * *', image: 'py-image', replicas: 1 },
      listed: ['py'],
      patched: { image: 'patched', generation: 2 },
      status: { replicas: 3 },
      scale: { kind: 'Scale', spec: { replicas: 1 }, status: { replicas: 3 } },
      replaced: 'replaced',
      invalid: { status: 422, message: 'CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: 99: spec.replicas in body should be less than or equal to 10' },
      afterDelete: [],
    });
  });

  it('a @kubernetes/client-node informer on a custom resource sees add, update and delete', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'informed' } } });
    const target = { group: 'stable.example.com', version: 'v1', namespace: 'informed', plural: 'crontabs' };
    const informer = k8s.makeInformer(kc, '/apis/stable.example.com/v1/namespaces/informed/crontabs', () => custom.listNamespacedCustomObject(target));
    const seen: string[] = [];
    const waitFor = (entry: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${entry}; saw ${seen.join(', ')}`)), 20_000);
        const check = setInterval(() => {
          if (seen.includes(entry)) {
            clearTimeout(timer);
            clearInterval(check);
            resolve();
          }
        }, 20);
      });
    const image = (o: k8s.KubernetesObject) => (o as { spec?: { image?: string } }).spec?.image;
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${image(o)}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', (err) => seen.push(`error ${String(err)}`));
    const body = (name: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * *', image: 'one' } });
    await custom.createNamespacedCustomObject({ ...target, body: body('before') });
    await informer.start();
    try {
      await waitFor('add before');
      await custom.createNamespacedCustomObject({ ...target, body: body('inf') });
      await waitFor('add inf');
      await custom.patchNamespacedCustomObject({ ...target, name: 'inf', body: { spec: { image: 'two' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await waitFor('update inf two');
      await custom.deleteNamespacedCustomObject({ ...target, name: 'inf' });
      await waitFor('delete inf');
      expect(informer.list('informed').map((o) => o.metadata?.name)).toEqual(['before']);
      expect(seen.filter((s) => s.startsWith('error'))).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('the Gateway API CRDs are established and their examples served; cert-manager\'s very large schemas too', () => {
    for (const file of yamlFiles(join(CRDS, 'gateway-api'))) ok('apply', '--server-side', '-f', file);
    for (const file of yamlFiles(join(CRDS, 'cert-manager'))) ok('apply', '--server-side', '-f', file);
    ok('wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s');
    const crds = ok('get', 'crd', '-o', 'name').trim().split('\n');
    expect(crds).toHaveLength(1 + 10 + 6);
    // Every example in one apply (the namespaces' file first, by name): nothing refused.
    const examples = run('apply', '-f', join(CRDS, 'gateway-api', 'examples'));
    expect(examples.stderr).toBe('');
    expect(examples.stdout.trim().split('\n').length).toBeGreaterThan(60);
    const gateways = ok('get', 'gateways', '-A').trim().split('\n');
    expect(gateways[0].split(/\s{2,}/)).toEqual(['NAMESPACE', 'NAME', 'CLASS', 'ADDRESS', 'PROGRAMMED', 'AGE']);
    expect(gateways.length).toBeGreaterThan(5);
    expect(ok('explain', 'certificates.spec.secretName')).toContain('FIELD: secretName <string>');
    expect(JSON.parse(ok('get', 'crd', 'gateways.gateway.networking.k8s.io', '-o', 'json')).status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`).sort()).toEqual([
      'Established=True', 'KubernetesAPIApprovalPolicyConformant=True', 'NamesAccepted=True',
    ]);
    expect(ok('api-resources', '--api-group=cert-manager.io', '-o', 'name').trim().split('\n').sort()).toEqual([
      'certificaterequests.cert-manager.io', 'certificates.cert-manager.io', 'clusterissuers.cert-manager.io', 'issuers.cert-manager.io',
    ]);
  });

  it('a custom resource breaking the CRD\'s CEL rules is refused with the CRD\'s own messages', () => {
    const gateway = manifest(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: bad-gateway
spec:
  gatewayClassName: acme-lb
  listeners:
  - name: tcp
    protocol: TCP
    port: 9000
    hostname: foo.example.com
  - name: tcp
    protocol: HTTP
    port: 80
`);
    const res = run('apply', '-f', gateway);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('The Gateway "bad-gateway" is invalid:');
    expect(res.stderr).toContain(`spec.listeners: Invalid value: "array": hostname must not be specified for protocols ['TCP', 'UDP']`);
    expect(res.stderr).toContain('spec.listeners: Invalid value: "array": Listener name must be unique within the Gateway');
    // Listeners are a list-type map keyed by name: kube's list check reports the repeated key too.
    expect(res.stderr).toContain('spec.listeners[1]: Duplicate value: map[string]interface {}{"name":"tcp"}');
    const route = manifest(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: bad-route
spec:
  parentRefs:
  - name: example-gateway
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /foo//bar
`);
    const routed = run('apply', '-f', route);
    expect(routed.stderr).toContain(`The HTTPRoute "bad-route" is invalid: spec.rules[0].matches[0].path: Invalid value: "object": must not contain '//' when type one of ['Exact', 'PathPrefix']`);
    // A transition rule: a GatewayClass's controllerName cannot change.
    const current = JSON.parse(ok('get', 'gatewayclass', 'example', '-o', 'json'));
    const changed = run('patch', 'gatewayclass', 'example', '--type=merge', '-p', '{"spec":{"controllerName":"other.io/controller"}}');
    expect(changed.status).not.toBe(0);
    expect(changed.stderr).toContain('spec.controllerName: Invalid value: "string": field is immutable');
    expect(current.spec.controllerName).toBe('acme.io/gateway-controller');
  });

  it.skipIf(!hasOpenssl)('kubectl reads and writes each version of a CRD whose versions convert through a webhook written here', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(tmp, 'hook.key'), '-out', join(tmp, 'hook.crt')], { stdio: 'ignore' });
    const cert = readFileSync(join(tmp, 'hook.crt'));
    // v1beta1 has spec.size, v1 spec.dimensions.size.
    const webhook = createHttpsServer({ key: readFileSync(join(tmp, 'hook.key')), cert }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const { uid, desiredAPIVersion, objects } = JSON.parse(body).request;
        const convertedObjects = objects.map((o: any) => ({
          ...o,
          apiVersion: desiredAPIVersion,
          spec: desiredAPIVersion.endsWith('/v1') ? { dimensions: { size: o.spec?.size } } : { size: o.spec?.dimensions?.size },
        }));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects, result: { status: 'Success' } } }));
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/convert`;
      const schema = (spec: object) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } });
      ok('apply', '-f', manifest(JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
        spec: {
          group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
          conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, caBundle: cert.toString('base64') } } },
          versions: [
            { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: schema({ size: { type: 'string' } }) },
            { name: 'v1', served: true, storage: true, schema: schema({ dimensions: { type: 'object', properties: { size: { type: 'string' } } } }) },
          ],
        },
      })));
      ok('wait', '--for=condition=Established', 'crd/gadgets.example.com', '--timeout=20s');
      // kubectl runs beside this process (not spawnSync): the webhook it reaches through the server answers from here.
      const created = await runAsync('apply', '-n', 'cron', '-f', manifest('apiVersion: example.com/v1beta1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  size: M\n'));
      expect(created.stderr).toContain('Warning: example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget');
      expect(created.status).toBe(0);
      expect((await runAsync('get', 'gadgets.v1.example.com', 'g', '-n', 'cron', '-o', 'jsonpath={.apiVersion} {.spec.dimensions.size}')).stdout).toBe('example.com/v1 M');
      expect((await runAsync('get', 'gadgets.v1beta1.example.com', 'g', '-n', 'cron', '-o', 'jsonpath={.apiVersion} {.spec.size}')).stdout).toBe('example.com/v1beta1 M');
    } finally {
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
    }
    // The webhook is gone: reading the other version is a 500 naming it.
    const broken = run('get', 'gadgets.v1beta1.example.com', 'g', '-n', 'cron');
    expect(broken.stderr).toContain('conversion webhook for example.com/v1, Kind=Gadget failed: Post "https://127.0.0.1:');
  });

  it('a CRD that tightens its schema leaves stored objects updatable where they are unchanged (ratcheting): kubectl and the Python client', () => {
    const crd = (sizeSchema: string) =>
      manifest(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sprockets.ratchet.example.com
spec:
  group: ratchet.example.com
  scope: Namespaced
  names: { plural: sprockets, kind: Sprocket }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: ${sizeSchema}
              color: { type: string }
`);
    ok('apply', '-f', crd('{ type: string }'));
    ok('wait', '--for=condition=Established', 'crd/sprockets.ratchet.example.com', '--timeout=20s');
    const sprocket = (name: string, size: string) => manifest(`apiVersion: ratchet.example.com/v1\nkind: Sprocket\nmetadata:\n  name: ${name}\nspec:\n  size: ${size}\n  color: red\n`);
    ok('apply', '-n', 'cron', '-f', sprocket('old', 'medium'));
    ok('apply', '-f', crd('{ type: string, enum: [small, large] }'));
    // Served with the new schema once a new object breaking it is refused (within a second or so).
    for (let i = 0; i < 100 && run('create', '-n', 'cron', '--dry-run=server', '-f', sprocket('new', 'medium')).status === 0; i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    const refused = run('create', '-n', 'cron', '--dry-run=server', '-f', sprocket('new', 'medium'));
    expect(refused.stderr).toContain('spec.size: Unsupported value: "medium": supported values: "small", "large"');
    // The stored object keeps its now-invalid size through updates that leave it alone...
    expect(ok('label', '-n', 'cron', 'sprocket', 'old', 'team=a')).toContain('labeled');
    ok('patch', '-n', 'cron', 'sprocket', 'old', '--type=merge', '-p', '{"spec":{"color":"blue"}}');
    // ... but may not change it to another invalid value.
    const changed = run('patch', '-n', 'cron', 'sprocket', 'old', '--type=merge', '-p', '{"spec":{"size":"huge"}}');
    expect(changed.status).not.toBe(0);
    expect(changed.stderr).toContain('spec.size: Unsupported value: "huge": supported values: "small", "large"');
    if (hasPythonClient) {
      // A different client replaces the object as it read it, with one change elsewhere.
      const script = `
import json, sys
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
api = client.CustomObjectsApi()
obj = api.get_namespaced_custom_object('ratchet.example.com', 'v1', 'cron', 'sprockets', 'old')
obj['spec']['color'] = 'green'
out = api.replace_namespaced_custom_object('ratchet.example.com', 'v1', 'cron', 'sprockets', 'old', obj)
print(json.dumps(out['spec']))
`;
      const res = spawnSync(PYTHON, ['-c', script, server.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout)).toEqual({ size: 'medium', color: 'green' });
    }
    ok('delete', 'crd', 'sprockets.ratchet.example.com', '--timeout=30s');
  });

  it('deleting a CRD deletes its custom resources and stops serving them; created again, it starts empty', () => {
    ok('delete', 'crd', 'crontabs.stable.example.com', '--timeout=30s');
    const gone = run('get', 'ct', '-A');
    expect(gone.status).not.toBe(0);
    ok('apply', '-f', CRONTAB_CRD);
    ok('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s');
    expect(ok('get', 'ct', '-A', '-o', 'name').trim()).toBe('');
  });

  it('custom resources and their CRDs survive a restart on SQLite, served at once', async () => {
    ok('apply', '-n', 'cron', '-f', cronTab('durable', 'cronSpec: "0 4 * * *"\nimage: keep'));
    await server.stop();
    server = await startServerProcess([], { dataDir: server.dataDir });
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
    ok = (...args) => kubectlOk(run, ...args);
    expect(ok('get', 'ct', 'durable', '-n', 'cron', '-o', 'jsonpath={.spec.image}')).toBe('keep');
    expect(ok('get', 'gateways', '-A', '-o', 'name').trim().split('\n').length).toBeGreaterThan(5);
  });
});
