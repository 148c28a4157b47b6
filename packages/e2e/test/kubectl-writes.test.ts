import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const dir = mkdtempSync(join(tmpdir(), 'kapi-writes-'));

const deployment = (image: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: writes
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: a
        image: ${image}
${extra}`;

// The write paths kubectl users rely on: client-side apply (strategic merge with $setElementOrder), the three
// patch types, edit, replace, diff, server-side dry run, scale, and create -f with unknown fields.
describe.skipIf(!kubectlPath)('kubectl writes against kapi-server', () => {
  let server: ServerProcess;
  let kubectl: ReturnType<typeof kubectlRunner>;
  const ok = (...args: string[]) => kubectlOk(kubectl, ...args);
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const jsonpath = (expr: string, ...what: string[]) => ok('get', ...what, '-n', 'writes', '-o', `jsonpath=${expr}`);

  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
    ok('create', 'namespace', 'writes');
  }, 60_000);
  afterAll(async () => server?.stop());

  it('apply twice: the second apply changes an image and adds a container', () => {
    expect(ok('apply', '-f', file('d1.yaml', deployment('nginx:1')))).toBe('deployment.apps/web created\n');
    const second = file('d2.yaml', deployment('nginx:2', '      - name: b\n        image: redis\n'));
    expect(ok('apply', '-f', second)).toBe('deployment.apps/web configured\n');
    expect(jsonpath('{.spec.template.spec.containers[*].name}={.spec.template.spec.containers[*].image}', 'deployment', 'web')).toBe('a b=nginx:2 redis');
    expect(ok('apply', '-f', second)).toBe('deployment.apps/web unchanged\n');
  });

  it('patch with --type strategic, merge and json', () => {
    ok('patch', 'deployment', 'web', '-n', 'writes', '--type', 'strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"b","$patch":"delete"}]}}}}');
    expect(jsonpath('{.spec.template.spec.containers[*].name}', 'deployment', 'web')).toBe('a');
    ok('patch', 'deployment', 'web', '-n', 'writes', '--type', 'merge', '-p', '{"metadata":{"labels":{"tier":"front"}}}');
    ok('patch', 'deployment', 'web', '-n', 'writes', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/replicas","value":3}]');
    expect(jsonpath('{.metadata.labels.tier}/{.spec.replicas}', 'deployment', 'web')).toBe('front/3');
  });

  it('edit with KUBE_EDITOR, scale, replace', () => {
    const editor = file('editor.sh', '#!/bin/sh\nsed -i "s/replicas: 3/replicas: 4/" "$1"\n');
    const res = kubectlRunner(kubectlPath!, server.kubeconfig);
    process.env.KUBE_EDITOR = `sh ${editor}`;
    try {
      const edited = res('edit', 'deployment', 'web', '-n', 'writes');
      expect(edited.stdout).toBe('deployment.apps/web edited\n');
    } finally {
      delete process.env.KUBE_EDITOR;
    }
    expect(jsonpath('{.spec.replicas}', 'deployment', 'web')).toBe('4');
    expect(ok('scale', 'deployment', 'web', '-n', 'writes', '--replicas=2')).toBe('deployment.apps/web scaled\n');
    expect(jsonpath('{.spec.replicas}', 'deployment', 'web')).toBe('2');
    expect(ok('replace', '-f', file('d3.yaml', deployment('nginx:3')))).toBe('deployment.apps/web replaced\n');
    expect(jsonpath('{.spec.template.spec.containers[*].image}/{.spec.replicas}', 'deployment', 'web')).toBe('nginx:3/1');
  });

  it('diff shows a pending change and nothing for an applied file', () => {
    const applied = file('d4.yaml', deployment('nginx:4'));
    ok('apply', '-f', applied);
    const same = kubectl('diff', '-f', applied);
    expect([same.status, same.stdout]).toEqual([0, '']);
    const changed = kubectl('diff', '-f', file('d5.yaml', deployment('nginx:5')));
    expect(changed.status).toBe(1);
    expect(changed.stdout).toMatch(/^-\s+- image: nginx:4$/m);
    expect(changed.stdout).toMatch(/^\+\s+- image: nginx:5$/m);
  });

  it('apply twice and diff on a kind without strategic merge patch (wardle Flunder): kubectl uses a merge patch', () => {
    const flunder = (reference: string) => `apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: f\n  namespace: writes\nspec:\n  reference: ${reference}\n`;
    expect(ok('apply', '-f', file('f1.yaml', flunder('one')))).toBe('flunder.wardle.example.com/f created\n');
    const second = file('f2.yaml', flunder('two'));
    const diff = kubectl('diff', '-f', second);
    expect([diff.status, diff.stderr]).toEqual([1, '']);
    expect(diff.stdout).toMatch(/^-  reference: one$/m);
    expect(diff.stdout).toMatch(/^\+  reference: two$/m);
    expect(ok('apply', '-f', second)).toBe('flunder.wardle.example.com/f configured\n');
    // kubectl get reads the preferred version (v1beta1); v1alpha1's reference is its flunderReference.
    expect(jsonpath('{.spec.reference}', 'flunders.v1alpha1.wardle.example.com', 'f')).toBe('two');
    expect(jsonpath('{.spec.flunderReference}', 'flunder', 'f')).toBe('two');
    expect(kubectl('diff', '-f', second)).toMatchObject({ status: 0, stdout: '' });
  });

  it('create --dry-run=server persists nothing', () => {
    expect(ok('create', 'configmap', 'dry', '-n', 'writes', '--from-literal=a=b', '--dry-run=server', '-o', 'name')).toBe('configmap/dry\n');
    expect(kubectl('get', 'configmap', 'dry', '-n', 'writes').stderr).toContain('configmaps "dry" not found');
  });

  it('create -f with an unknown field: --validate=strict refuses it, --validate=warn warns and drops it', () => {
    const manifest = file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: odd\n  namespace: writes\ndata:\n  a: b\nbogus: 1\n');
    const strict = kubectl('create', '-f', manifest, '--validate=strict');
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain('unknown field "bogus"');
    const warn = kubectl('create', '-f', manifest, '--validate=warn');
    expect(warn.status).toBe(0);
    expect(warn.stderr).toContain('unknown field "bogus"');
    expect(ok('get', 'configmap', 'odd', '-n', 'writes', '-o', 'json')).not.toContain('bogus');
  });

  it('apply --server-side: ownership in managedFields, a second manager conflicts, --force-conflicts takes over', () => {
    const manifest = (replicas: number) =>
      file(`ss${replicas}.yaml`, deployment('nginx:1').replace('name: web', 'name: ss').replaceAll('app: web', 'app: ss').replace('replicas: 1', `replicas: ${replicas}`));
    expect(ok('apply', '--server-side', '-f', manifest(2))).toBe('deployment.apps/ss serverside-applied\n');
    const fields = JSON.parse(jsonpath('{.metadata.managedFields}', 'deployment', 'ss'));
    expect(fields.map((f: { manager: string; operation: string }) => `${f.manager}/${f.operation}`)).toEqual(['kubectl/Apply']);
    expect(fields[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
    const conflict = kubectl('apply', '--server-side', '--field-manager=other', '-f', manifest(5));
    expect(conflict.status).toBe(1);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(ok('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', manifest(5))).toBe('deployment.apps/ss serverside-applied\n');
    expect(jsonpath('{.spec.replicas}', 'deployment', 'ss')).toBe('5');
    const after = JSON.parse(jsonpath('{.metadata.managedFields}', 'deployment', 'ss'));
    const kubectlEntry = after.find((f: { manager: string }) => f.manager === 'kubectl');
    expect(kubectlEntry.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
  });

  it('apply --server-side of a Helm-rendered manifest with nulls: accepted, the null fields left unset', () => {
    const rendered = file(
      'helm.yaml',
      deployment('nginx:1', '        args: null\n        volumeMounts: null\n        resources: null\n      volumes: null\n')
        .replace('name: web\n  namespace: writes', 'name: helm\n  namespace: writes\n  annotations: null')
        .replaceAll('app: web', 'app: helm')
        .replace('labels: {app: helm}', 'labels: {app: helm}\n      annotations: null'),
    );
    expect(ok('apply', '--server-side', '--field-manager=helm', '-f', rendered)).toBe('deployment.apps/helm serverside-applied\n');
    expect(jsonpath('{.spec.template.spec.containers[0].image}', 'deployment', 'helm')).toBe('nginx:1');
    expect(jsonpath('{.spec.template.spec.containers[0].args}', 'deployment', 'helm')).toBe('');
    expect(jsonpath('{.metadata.annotations}', 'deployment', 'helm')).toBe('');
  });
});
