// kube refuses an update without metadata.resourceVersion for kinds whose strategy does not allow unconditional
// updates (leases, runtime classes, webhook configurations, CSI objects, PodDisruptionBudgets, APIServices, CRDs and
// custom resources), while a ConfigMap is overwritten; a PUT of a custom resource that does not exist is 404.
// Tried with kubectl (whose `replace -f` reads the object first) and the Python client.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'kapi-preconditions-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const lease = (holder: string) => `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: lock, namespace: pre}
spec: {holderIdentity: ${holder}}
`;
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
const gadget = (name: string, size: number) => `apiVersion: example.com/v1
kind: Gadget
metadata: {name: ${name}, namespace: pre}
size: ${size}
`;
const mustSpecify = (resource: string, name: string) => `${resource} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`;

describe.skipIf(!kubectlPath)('updates that must name the resourceVersion', () => {
  let server: ServerProcess;
  let kubectl: ReturnType<typeof kubectlRunner>;
  const ok = (...args: string[]) => kubectlOk(kubectl, ...args);

  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
    ok('create', 'namespace', 'pre');
    ok('create', '-f', file('crd.yaml', CRD));
    ok('wait', '--for=condition=Established', 'crd/gadgets.example.com');
  }, 60_000);
  afterAll(async () => server?.stop());

  // kubectl replace -f reads the object first and sends the resourceVersion it read: it works as on kube. A PUT
  // without one (kubectl replace --raw, or any client that did not read) is what kube refuses.
  const put = (path: string, name: string, text: string) => kubectl('replace', '--raw', path, '-f', file(name, JSON.stringify(toJson(text))));
  const toJson = (text: string) => JSON.parse(ok('create', '--dry-run=client', '-o', 'json', '-f', file(`dry-${text.length}.yaml`, text)));

  it('a PUT of a Lease without its resourceVersion is refused; of a ConfigMap it overwrites; kubectl replace -f reads it first', () => {
    ok('create', '-f', file('lease.yaml', lease('a')));
    const refused = put('/apis/coordination.k8s.io/v1/namespaces/pre/leases/lock', 'lease2.json', lease('b'));
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('leases "lock" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    expect(ok('get', 'lease', 'lock', '-n', 'pre', '-o', 'jsonpath={.spec.holderIdentity}')).toBe('a');
    expect(ok('replace', '-f', file('lease3.yaml', lease('c')))).toBe('lease.coordination.k8s.io/lock replaced\n');
    ok('create', 'configmap', 'c', '-n', 'pre', '--from-literal=k=1');
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: pre}\ndata: {k: "2"}\n';
    expect(put('/api/v1/namespaces/pre/configmaps/c', 'cm.json', configMap).status).toBe(0);
    expect(ok('get', 'configmap', 'c', '-n', 'pre', '-o', 'jsonpath={.data.k}')).toBe('2');
  });

  it('a PUT of a custom resource needs its resourceVersion, and does not create one', () => {
    const path = '/apis/example.com/v1/namespaces/pre/gadgets/g';
    const missing = put(path, 'g0.json', gadget('g', 1));
    expect(missing.stderr).toContain('gadgets.example.com "g" not found');
    expect(kubectl('get', 'gadget', 'g', '-n', 'pre').status).not.toBe(0);
    ok('create', '-f', file('g1.yaml', gadget('g', 1)));
    expect(put(path, 'g2.json', gadget('g', 2)).stderr).toContain('gadgets "g" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    expect(ok('replace', '-f', file('g3.yaml', gadget('g', 3)))).toBe('gadget.example.com/g replaced\n');
    expect(ok('get', 'gadget', 'g', '-n', 'pre', '-o', 'jsonpath={.size}')).toBe('3');
  });

  it.skipIf(!hasPythonClient)('the Python client replacing a Lease it did not read is refused; as read, it is replaced', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/update_preconditions.py'), server.kubeconfig, 'pre'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ withoutVersion: { status: 422, message: mustSpecify('leases.coordination.k8s.io', 'py-lease') }, asRead: 'c' });
  });
});
