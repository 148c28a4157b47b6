import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startServerProcess, type ServerProcess } from '../src/server.js';

// Debian's python3-kubernetes lives with the system interpreter, not with any other python3 on PATH.
const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;

describe('real clients against kapi-server over TLS', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  }, 60_000);
  afterAll(async () => server?.stop());

  it.skipIf(!hasPythonClient)('python3-kubernetes: list, create without kind, read, strategic and JSON patches, replace of a read object, delete', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/crud.py'), server.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      namespaces: ['default', 'kube-node-lease', 'kube-public', 'kube-system'],
      created: { kind: 'ConfigMap', apiVersion: 'v1', name: 'from-python', uid: true, data: { lang: 'python' } },
      read: { resourceVersion: true, labels: { client: 'python' } },
      listed: ['from-python'],
      patched: { labels: { client: 'python', patched: 'strategic' }, data: { lang: 'py3' } },
      replaced: { data: { lang: 'replaced' }, sameCreation: true },
      afterDelete: { status: 404, reason: 'NotFound' },
    });
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes: read-modify-replace loops on a Deployment (its status conditions too) and a wardle Flunder', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/replace.py'), server.kubeconfig], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      defaulted: { replicas: 1, strategy: 'RollingUpdate', pullPolicy: 'IfNotPresent' },
      replaced: { replicas: 4, image: 'nginx:1.28', generation: 4 },
      status: { replicas: 4, time: '2026-11-24T11:50:56+00:00' },
      statusAgain: 5,
      flunder: { reference: 'three', referenceType: 'Flunder' }, // the schema's default
    });
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes + PyYAML: YAML responses read back as the same strings (YAML 1.1)', () => {
    const awkward = [
      'on', 'off', 'yes', 'no', 'Y', 'n', 'True', 'NULL', '~', '', '0x1F', '0o17', '017', '1e3', '1_000', '.inf', '.NaN',
      '2024-01-01', '2001-12-14 21:59:43.10 -5', '190:20:30', '<<', '=', ' lead', 'trail ', 'a: b', '#c', '*x', '!t', '[1]',
    ];
    const data = Object.fromEntries(awkward.map((s, i) => [`k${i}`, s]));
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/yaml11.py'), server.kubeconfig, JSON.stringify(data)], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ contentType: 'application/yaml', labels: { on: 'yes' }, data });
  });

  it('@kubernetes/client-node: create, read, delete', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'from-node' }, data: { lang: 'typescript' } },
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const read = await core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' });
    expect(read.data).toEqual({ lang: 'typescript' });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    await core.deleteNamespacedConfigMap({ name: 'from-node', namespace: 'default' });
    await expect(core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' })).rejects.toMatchObject({ code: 404 });
  });

  it('@kubernetes/client-node: server-side apply creates, then patches with ownership tracked', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa-node', namespace: 'default' }, data: { a: '1' } };
    const created = await objects.patch(body, undefined, undefined, 'node-client', undefined, k8s.PatchStrategy.ServerSideApply);
    expect((created as k8s.V1ConfigMap).metadata?.managedFields?.map((f) => `${f.manager}/${f.operation}`)).toEqual(['node-client/Apply']);
    const updated = await objects.patch({ ...body, data: { a: '2', b: '3' } }, undefined, undefined, 'node-client', undefined, k8s.PatchStrategy.ServerSideApply);
    expect((updated as k8s.V1ConfigMap).data).toEqual({ a: '2', b: '3' });
  });
});
