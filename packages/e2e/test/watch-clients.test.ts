// Lists and watches through real clients: kubectl get -w / wait / --chunk-size, a @kubernetes/client-node informer,
// the Python client's watch (resume, bookmarks, 410), and 200 concurrent watchers over HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';
import { configMap, request, startHttpServer, watch } from './storage-helpers.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const [kubectl] = kubectlBinaries([]);

/** A process's output so far, and a wait until it matches (rejects if the process exits first). */
function collect(child: ReturnType<typeof spawn>) {
  let out = '';
  const checks = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const check of checks) check();
  });
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  // 'close', not 'exit': a process may exit before its output has been read (under load the last line came after 'exit').
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    exited: exited.then((code) => ({ code, out })),
    until: (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(out)) return;
          checks.delete(check);
          resolve(out);
        };
        checks.add(check);
        check();
        void exited.then(() => reject(new Error(`exited before ${pattern}: ${out}`)));
      }),
  };
}

describe('lists and watches through real clients', () => {
  let server: ServerProcess;
  let run: ReturnType<typeof kubectlRunner>;
  beforeAll(async () => {
    server = await startServerProcess();
    if (kubectl) run = kubectlRunner(kubectl.path, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  const kubectlArgs = (...args: string[]) => ['--kubeconfig', server.kubeconfig, ...args];

  it.skipIf(!kubectl)('kubectl get -w --output-watch-events prints the state, then each change', async () => {
    run('create', 'configmap', 'kw-a', '--from-literal=k=v');
    const child = spawn(kubectl!.path, kubectlArgs('get', 'configmaps', '-w', '--output-watch-events'));
    const output = collect(child);
    try {
      await output.until(/kw-a/);
      expect(run('create', 'configmap', 'kw-b', '--from-literal=k=v').status).toBe(0);
      expect(run('label', 'configmap', 'kw-b', 'x=y').status).toBe(0);
      expect(run('delete', 'configmap', 'kw-b').status).toBe(0);
      // EVENT NAME DATA AGE rows: the state, then the changes in order.
      const rows = (await output.until(/DELETED\s+kw-b/)).trim().split('\n').map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));
      expect(rows[0]).toBe('EVENT NAME');
      // Every namespace also holds kube-root-ca.crt (kube's root CA publisher), as on kube.
      expect(rows.slice(1)).toEqual(['ADDED kube-root-ca.crt', 'ADDED kw-a', 'ADDED kw-b', 'MODIFIED kw-b', 'DELETED kw-b']);
    } finally {
      child.kill();
    }
  });

  it.skipIf(!kubectl)('kubectl wait --for=delete and --for=jsonpath return once the change happens', async () => {
    run('create', 'configmap', 'wait-del', '--from-literal=k=v');
    run('create', 'configmap', 'wait-json', '--from-literal=ready=no');
    const waitDelete = spawn(kubectl!.path, kubectlArgs('wait', '--for=delete', 'configmap/wait-del', '--timeout=30s'));
    const waitJson = spawn(kubectl!.path, kubectlArgs('wait', '--for=jsonpath={.data.ready}=yes', 'configmap/wait-json', '--timeout=30s'));
    const deleted = collect(waitDelete).exited;
    const matched = collect(waitJson).exited;
    await new Promise((r) => setTimeout(r, 1000));
    expect(run('delete', 'configmap', 'wait-del').status).toBe(0);
    expect(run('patch', 'configmap', 'wait-json', '-p', '{"data":{"ready":"yes"}}').status).toBe(0);
    expect(await deleted).toEqual({ code: 0, out: 'configmap/wait-del condition met\n' });
    expect(await matched).toEqual({ code: 0, out: 'configmap/wait-json condition met\n' });
  });

  it.skipIf(!kubectl)('kubectl get --chunk-size lists page by page with continue tokens', () => {
    run('create', 'namespace', 'chunks');
    for (let i = 0; i < 5; i++) run('create', 'configmap', `ch${i}`, '-n', 'chunks', '--from-literal=k=v');
    const res = run('get', 'configmaps', '-n', 'chunks', '--chunk-size=2', '-o', 'name', '-v=6');
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n').filter((l) => l.includes('/ch'))).toEqual([0, 1, 2, 3, 4].map((i) => `configmap/ch${i}`));
    const pages = res.stderr.split('\n').filter((l) => /url="[^"]*\/namespaces\/chunks\/configmaps\?[^"]*limit=2/.test(l));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.slice(1).every((l) => l.includes('continue='))).toBe(true);
  });

  it('@kubernetes/client-node informer sees add, update and delete', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'informed' } } });
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/informed/configmaps', () => core.listNamespacedConfigMap({ namespace: 'informed' }));
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
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name} ${(o as k8s.V1ConfigMap).data?.v}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', (err) => seen.push(`error ${String(err)}`));
    await core.createNamespacedConfigMap({ namespace: 'informed', body: { metadata: { name: 'before' }, data: { v: '0' } } });
    await informer.start();
    try {
      await waitFor('add before');
      await core.createNamespacedConfigMap({ namespace: 'informed', body: { metadata: { name: 'inf' }, data: { v: '1' } } });
      await waitFor('add inf');
      await core.patchNamespacedConfigMap(
        { name: 'inf', namespace: 'informed', body: { data: { v: '2' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await waitFor('update inf 2');
      await core.deleteNamespacedConfigMap({ name: 'inf', namespace: 'informed' });
      await waitFor('delete inf');
      expect(informer.list('informed').map((o) => o.metadata?.name).sort()).toEqual(['before', 'kube-root-ca.crt']);
      expect(seen.filter((s) => s.startsWith('error'))).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes watch: resource_version with timeout_seconds sees every later change; bookmarks', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/watch.py'), server.kubeconfig, 'resume'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.after).toEqual(['ADDED py-w2', 'MODIFIED py-w1', 'DELETED py-w2']);
    // allow_watch_bookmarks=True arrives as "True"; the stream ends with a bookmark.
    expect(out.bookmarks.slice(0, 3)).toEqual(out.after);
    expect(out.bookmarks[3]).toMatch(/^BOOKMARK/);
  });
});

describe('history retention with a short --etcd-compaction-interval', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(['--etcd-compaction-interval=1s']);
  }, 60_000);
  afterAll(async () => server?.stop());

  it.skipIf(!hasPythonClient)('python3-kubernetes: a watch from a compacted resource_version raises 410 Expired', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/watch.py'), server.kubeconfig, 'gone'], { encoding: 'utf8', timeout: 90_000 });
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.status).toBe(410);
    expect(out.reason).toMatch(/^Expired: too old resource version: \d+ \(\d+\)$/);
  }, 100_000);
});

describe('200 concurrent watchers', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer();
  }, 60_000);
  afterAll(async () => server?.stop());

  it('each sees every event of a burst of writes, in order', async () => {
    const path = `${server.url}/api/v1/namespaces/default/configmaps`;
    const start = (await request('GET', path)).body.metadata.resourceVersion;
    const watchers = await Promise.all(Array.from({ length: 200 }, () => watch(`${path}?watch=1&resourceVersion=${start}`)));
    const WRITES = 150;
    const expected: string[] = [];
    // The burst: creates in parallel batches, then updates and deletes.
    for (let batch = 0; batch < WRITES / 50; batch++) {
      const res = await Promise.all(
        Array.from({ length: 50 }, (_, i) => request('POST', path, configMap(`burst-${batch}-${i}`, { n: String(i) }))),
      );
      expect(res.every((r) => r.status === 201)).toBe(true);
    }
    const listed = await request('GET', path);
    for (const item of listed.body.items.filter((i: any) => i.metadata.name.startsWith('burst-'))) {
      expected.push(`${item.metadata.resourceVersion}`);
    }
    expected.sort((a, b) => Number(a) - Number(b));
    try {
      for (const w of watchers) {
        const events = await w.next(WRITES);
        expect(events.every((e) => e.type === 'ADDED')).toBe(true);
        expect(events.map((e) => e.object.metadata.resourceVersion)).toEqual(expected);
      }
    } finally {
      for (const w of watchers) w.close();
    }
  }, 120_000);
});
