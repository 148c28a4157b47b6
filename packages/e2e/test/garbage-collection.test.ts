// The garbage collector with real clients: kubectl delete --cascade=foreground|background|orphan, the Python client's
// propagation policies, and a server killed in the middle of a collection.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'kapi-gc-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!kubectlPath)('garbage collection with kubectl and the Python client', () => {
  let server: ServerProcess;
  let kubectl: ReturnType<typeof kubectlRunner>;
  const apply = (name: string, docs: object[]) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: docs }));
    kubectlOk(kubectl, 'apply', '-f', path);
  };
  const uid = (kind: string, name: string, ns = 'default') => kubectlOk(kubectl, 'get', kind, name, '-n', ns, '-o', 'jsonpath={.metadata.uid}');
  const names = (kind: string, selector: string, ns = 'default') => kubectlOk(kubectl, 'get', kind, '-n', ns, '-l', selector, '-o', 'name').split('\n').filter(Boolean);
  const eventually = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 150 && !check(); i++) await sleep(100);
    expect(check(), what).toBe(true);
  };
  /** A Deployment, a ReplicaSet it owns and pods the ReplicaSet owns, as kube's controllers would make them. */
  const chain = (name: string, pods = 2) => {
    const labels = { app: name };
    const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    apply(`${name}-deploy`, [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels }, spec: { selector: { matchLabels: labels }, template } }]);
    const owner = (kind: string, n: string, apiVersion: string) => ({ apiVersion, kind, name: n, uid: uid(kind.toLowerCase(), n), controller: true, blockOwnerDeletion: true });
    apply(`${name}-rs`, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `${name}-rs`, labels, ownerReferences: [owner('Deployment', name, 'apps/v1')] }, spec: { selector: { matchLabels: labels }, template } }]);
    const rsOwner = owner('ReplicaSet', `${name}-rs`, 'apps/v1');
    apply(`${name}-pods`, Array.from({ length: pods }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-${i}`, labels, ownerReferences: [rsOwner] }, spec: template.spec })));
  };

  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=sqlite']);
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('kubectl delete --cascade=background (the default): the deployment goes at once, its replica set and pods after', async () => {
    chain('bg');
    kubectlOk(kubectl, 'delete', 'deployment', 'bg');
    expect(kubectl('get', 'deployment', 'bg').status).toBe(1);
    await eventually(() => names('replicasets', 'app=bg').length === 0 && names('pods', 'app=bg').length === 0, 'the replica set and pods collected');
  });

  it('kubectl delete --cascade=foreground: waits while dependents go first, then the deployment', async () => {
    chain('fg');
    // A pod held by a finalizer holds the chain above it (blockOwnerDeletion).
    kubectlOk(kubectl, 'patch', 'pod', 'fg-0', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}');
    kubectlOk(kubectl, 'delete', 'deployment', 'fg', '--cascade=foreground', '--wait=false');
    await eventually(() => kubectl('get', 'pod', 'fg-1').status === 1, 'the free pod collected');
    const deployment = JSON.parse(kubectlOk(kubectl, 'get', 'deployment', 'fg', '-o', 'json'));
    expect(deployment.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(deployment.metadata.deletionTimestamp).toBeDefined();
    kubectlOk(kubectl, 'patch', 'pod', 'fg-0', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    await eventually(() => kubectl('get', 'deployment', 'fg').status === 1 && names('replicasets', 'app=fg').length === 0, 'the chain collected');
  });

  it('kubectl delete --cascade=orphan: the replica set and pods stay, without the reference', async () => {
    chain('or');
    kubectlOk(kubectl, 'delete', 'deployment', 'or', '--cascade=orphan');
    await eventually(() => kubectl('get', 'deployment', 'or').status === 1, 'the deployment gone');
    const rs = JSON.parse(kubectlOk(kubectl, 'get', 'replicaset', 'or-rs', '-o', 'json'));
    expect(rs.metadata.ownerReferences).toBeUndefined();
    expect(names('pods', 'app=or')).toHaveLength(2);
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes: V1DeleteOptions(propagation_policy=...) in each mode', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/garbage_collection.py'), server.kubeconfig], { encoding: 'utf8', timeout: 120_000 });
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      Foreground: { replicaSet: false, pods: 0, podOwnerRefs: 0 },
      Background: { replicaSet: false, pods: 0, podOwnerRefs: 0 },
      Orphan: { replicaSet: false, pods: 3, podOwnerRefs: 0 },
    });
  });

  it('a server killed in the middle of a collection finishes it after the restart', async () => {
    chain('kill', 150);
    kubectlOk(kubectl, 'delete', 'replicaset', 'kill-rs', '--wait=false');
    await server.kill('SIGKILL');
    server = await startServerProcess(['--storage-backend=sqlite'], { dataDir: server.dataDir });
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
    await eventually(() => names('pods', 'app=kill').length === 0, 'every pod of the killed collection collected');
  }, 120_000);
});
