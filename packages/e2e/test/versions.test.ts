// One kind served in several versions through real clients (issue 20): wardle's Flunder (v1alpha1, and v1beta1 its
// storage version, converted by generated code and sample-apiserver's hand-written reference conversion) and
// autoscaling's HorizontalPodAutoscaler (v1 and v2, converted as kube converts), with kubectl (1.32 and 1.33), the
// Python client and a @kubernetes/client-node watch: create in one version, read, update and watch in the other,
// server-side apply by two managers in two versions.
import * as k8s from '@kubernetes/client-node';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner, type KubectlResult } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const binaries = kubectlBinaries();
const kubectl = binaries[binaries.length - 1];
const manifest = manifestWriter('kapi-versions-');
const flunderV1alpha1 = (name: string, spec: string) =>
  manifest(`apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: ${name}\nspec:\n${spec.replace(/^/gm, '  ')}\n`);
const flunderV1beta1 = (name: string, spec: string) =>
  manifest(`apiVersion: wardle.example.com/v1beta1\nkind: Flunder\nmetadata:\n  name: ${name}\nspec:\n${spec.replace(/^/gm, '  ')}\n`);

describe.skipIf(!kubectl)('one kind in several versions, with kubectl and client libraries', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let run: (...args: string[]) => KubectlResult;
  let ok: (...args: string[]) => string;
  beforeAll(async () => {
    server = await startServerProcess();
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
    ok = (...args) => kubectlOk(run, ...args);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('discovery prefers the newest version; kubectl reads and writes each version by its full resource name', () => {
    const resources = ok('api-resources', '--api-group=wardle.example.com', '--no-headers');
    expect(resources).toMatch(/^flunders\s+wardle\.example\.com\/v1beta1\s+true\s+Flunder$/m);
    expect(JSON.parse(ok('get', '--raw', '/apis/wardle.example.com')).preferredVersion.version).toBe('v1beta1');
    ok('create', 'namespace', 'kc');
    ok('apply', '-n', 'kc', '-f', flunderV1alpha1('one', 'reference: fish\nreferenceType: Fischer'));
    const beta = JSON.parse(ok('get', '-n', 'kc', 'flunders.v1beta1.wardle.example.com', 'one', '-o', 'json'));
    expect(beta).toMatchObject({ apiVersion: 'wardle.example.com/v1beta1', spec: { fischerReference: 'fish', referenceType: 'Fischer' } });
    expect(beta.spec.reference).toBeUndefined();
    // The preferred version is what a plain `kubectl get` uses.
    expect(ok('get', '-n', 'kc', 'flunders', 'one', '-o', 'jsonpath={.apiVersion} {.spec.fischerReference}')).toBe('wardle.example.com/v1beta1 fish');
    ok('patch', '-n', 'kc', 'flunders.v1beta1.wardle.example.com', 'one', '--type=merge', '-p', '{"spec":{"fischerReference":null,"flunderReference":"two","referenceType":"Flunder"}}');
    expect(JSON.parse(ok('get', '-n', 'kc', 'flunders.v1alpha1.wardle.example.com', 'one', '-o', 'json')).spec).toEqual({ reference: 'two', referenceType: 'Flunder' });
    // An unknown version is 404.
    const unknown = run('get', '--raw', '/apis/wardle.example.com/v2/namespaces/kc/flunders/one');
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('NotFound');
  });

  it.each(binaries)('kubectl $name reads each version by its full resource name and explains it', ({ path }) => {
    const other = kubectlRunner(path, server.kubeconfig);
    const get = other('get', '-n', 'kc', 'flunders.v1alpha1.wardle.example.com', 'one', '-o', 'jsonpath={.apiVersion} {.spec.reference}');
    expect(get.stderr).toBe('');
    expect(get.stdout).toBe('wardle.example.com/v1alpha1 two');
    const explain = other('explain', 'flunders.spec', '--api-version=wardle.example.com/v1alpha1');
    expect(explain.stdout).toMatch(/VERSION:\s+v1alpha1/);
    expect(explain.stdout).toMatch(/^\s+reference\s+<string>/m);
    expect(explain.stdout).not.toContain('fischerReference');
  });

  it('a kubectl watch in v1alpha1 and a client-node watch in v1beta1 each get every change in their own version', async () => {
    ok('create', 'namespace', 'watched');
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const seenBeta: string[] = [];
    const watch = new k8s.Watch(kc);
    const request = await watch.watch('/apis/wardle.example.com/v1beta1/namespaces/watched/flunders', {}, (type, obj) => {
      seenBeta.push(`${type} ${obj.apiVersion} ${obj.spec?.fischerReference ?? '-'}/${obj.spec?.flunderReference ?? '-'}`);
    }, () => {});
    const child = spawn(kubectl!.path, ['--kubeconfig', server.kubeconfig, 'get', '-n', 'watched', 'flunders.v1alpha1.wardle.example.com', '--watch', '--output-watch-events', '-o', 'json']);
    let alphaOut = '';
    child.stdout.on('data', (c) => (alphaOut += c));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      ok('apply', '-n', 'watched', '-f', flunderV1alpha1('w', 'reference: fish\nreferenceType: Fischer'));
      ok('patch', '-n', 'watched', 'flunders.v1beta1.wardle.example.com', 'w', '--type=merge', '-p', '{"metadata":{"labels":{"seen":"yes"}}}');
      ok('delete', '-n', 'watched', 'flunders', 'w');
      for (let i = 0; i < 100 && (seenBeta.length < 3 || (alphaOut.match(/"type": "/g) ?? []).length < 3); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seenBeta).toEqual([
        'ADDED wardle.example.com/v1beta1 fish/-',
        'MODIFIED wardle.example.com/v1beta1 fish/-',
        'DELETED wardle.example.com/v1beta1 fish/-',
      ]);
      const alphaEvents = alphaOut.split(/\n(?=\{)/).filter((s) => s.trim()).map((s) => JSON.parse(s));
      expect(alphaEvents.map((e) => `${e.type} ${e.object.apiVersion} ${e.object.spec.reference}`)).toEqual([
        'ADDED wardle.example.com/v1alpha1 fish',
        'MODIFIED wardle.example.com/v1alpha1 fish',
        'DELETED wardle.example.com/v1alpha1 fish',
      ]);
    } finally {
      child.kill();
      request.abort();
    }
  });

  it('server-side apply by two managers in two versions: conflicts are found across versions, force takes the field', () => {
    ok('create', 'namespace', 'ssa');
    ok('apply', '--server-side', '--field-manager=alpha', '-n', 'ssa', '-f', flunderV1alpha1('s', 'reference: fish\nreferenceType: Fischer'));
    const conflict = run('apply', '--server-side', '--field-manager=beta', '-n', 'ssa', '-f', flunderV1beta1('s', 'fischerReference: shark\nreferenceType: Fischer'));
    expect(conflict.status).not.toBe(0);
    expect(conflict.stderr).toContain('conflict with "alpha": .spec.reference');
    ok('apply', '--server-side', '--force-conflicts', '--field-manager=beta', '-n', 'ssa', '-f', flunderV1beta1('s', 'fischerReference: shark\nreferenceType: Fischer'));
    const obj = JSON.parse(ok('get', '-n', 'ssa', 'flunders.v1alpha1.wardle.example.com', 's', '-o', 'json', '--show-managed-fields'));
    expect(obj.spec).toEqual({ reference: 'shark', referenceType: 'Fischer' });
    const managers = Object.fromEntries(obj.metadata.managedFields.map((m: any) => [m.manager, m]));
    expect(managers.beta.apiVersion).toBe('wardle.example.com/v1beta1');
    expect(managers.beta.fieldsV1['f:spec']).toHaveProperty('f:fischerReference');
    expect(managers.alpha.apiVersion).toBe('wardle.example.com/v1alpha1');
    expect(managers.alpha.fieldsV1['f:spec'] ?? {}).not.toHaveProperty('f:reference');
  });

  it('a HorizontalPodAutoscaler written in autoscaling/v1 is read, printed and updated in v2, and back, without loss', () => {
    ok('create', 'namespace', 'hpa');
    ok('apply', '-n', 'hpa', '-f', manifest(`apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 70
`));
    const v2 = JSON.parse(ok('get', '-n', 'hpa', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-o', 'json'));
    expect(v2.spec).toMatchObject({ minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] });
    expect(ok('get', '-n', 'hpa', 'hpa', 'web', '--no-headers')).toMatch(/^web\s+Deployment\/web\s+cpu: <unknown>\/70%\s+1\s+5\s+0\s+/);
    ok('patch', '-n', 'hpa', 'horizontalpodautoscalers.v2.autoscaling', 'web', '--type=json', '-p',
      '[{"op":"add","path":"/spec/metrics/-","value":{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}}}]');
    const v1 = JSON.parse(ok('get', '-n', 'hpa', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json'));
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    // A v1 client replaces the object it read: the v2-only metric survives.
    v1.spec.maxReplicas = 8;
    ok('replace', '-f', manifest(JSON.stringify(v1)));
    const after = JSON.parse(ok('get', '-n', 'hpa', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-o', 'json'));
    expect(after.spec.maxReplicas).toBe(8);
    // kube's v1 conversion puts the CPU target last, after the metrics kept in the annotation.
    expect(after.spec.metrics.map((m: any) => m.type)).toEqual(['Pods', 'Resource']);
    expect(Object.keys(after.metadata.annotations).filter((k) => k.startsWith('autoscaling.alpha'))).toEqual([]);
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes reads and replaces across versions: CustomObjectsApi and the typed autoscaling/v1 API', () => {
    ok('create', 'namespace', 'py');
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/versions.py'), server.kubeconfig, 'py'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      readInV1beta1: { apiVersion: 'wardle.example.com/v1beta1', spec: { fischerReference: 'fish', referenceType: 'Fischer' } },
      replacedInV1beta1: { flunderReference: 'other', referenceType: 'Flunder' },
      readInV1alpha1: { apiVersion: 'wardle.example.com/v1alpha1', spec: { reference: 'other', referenceType: 'Flunder' } },
      listed: {
        v1alpha1: { apiVersion: 'wardle.example.com/v1alpha1', specs: [{ reference: 'other', referenceType: 'Flunder' }] },
        v1beta1: { apiVersion: 'wardle.example.com/v1beta1', specs: [{ flunderReference: 'other', referenceType: 'Flunder' }] },
      },
      unknownVersion: 404,
      v2Metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      v2MinReplicas: 1,
      v1: { target: 70, annotations: ['autoscaling.alpha.kubernetes.io/behavior', 'autoscaling.alpha.kubernetes.io/metrics'] },
      v2AfterV1Replace: { maxReplicas: 7, metrics: ['memory', 'cpu'], scaleDownWindow: 60, annotations: [] },
    });
  });
});
