// kube's RuntimeClass admission, as a Pod naming a RuntimeClass meets it: the class must exist, its overhead becomes
// the Pod's, its scheduling is merged into the Pod's; in-process with the sample server's plugins, then kubectl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { serverPlugins } from '@kapi/server';
import { createMemoryBackend } from '@kapi/storage';
import { kubectlBinaries, kubectlOf } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PODS = '/api/v1/namespaces/default/pods';
const CLASSES = '/apis/node.k8s.io/v1/runtimeclasses';
const kubectlBin = kubectlBinaries()[0];

async function req(server: ApiServer, method: string, path: string, body?: unknown) {
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } });

describe('RuntimeClass admission', { timeout: 30_000 }, () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: serverPlugins() });
    await server.start();
    const gvisor = {
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: { nodeSelector: { 'runtime/gvisor': 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    };
    expect((await req(server, 'POST', CLASSES, gvisor)).status).toBe(201);
    expect((await req(server, 'POST', CLASSES, { metadata: { name: 'plain' }, handler: 'runc' })).status).toBe(201);
  });
  afterAll(() => server?.stop());

  it("gives a Pod its class's overhead, node selector and tolerations", async () => {
    const res = await req(server, 'POST', PODS, pod('sandboxed', { runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
    expect(res.body.spec.nodeSelector).toEqual({ zone: 'a', 'runtime/gvisor': 'true' });
    expect(res.body.spec.tolerations).toContainEqual({ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' });
    // The same overhead given by the Pod (in another spelling of the quantities) is fine.
    const same = await req(server, 'POST', PODS, pod('same-overhead', { runtimeClassName: 'gvisor', overhead: { cpu: '0.25', memory: '120Mi' } }));
    expect(same.status, JSON.stringify(same.body)).toBe(201);
    expect((await req(server, 'POST', PODS, pod('plain-pod', { runtimeClassName: 'plain' }))).status).toBe(201);
  });

  it('refuses a class that does not exist, a different overhead, an overhead without one, and a conflicting node label', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ runtimeClassName: 'does-not-exist' }, 'pods "p" is forbidden: runtimeclasses.node.k8s.io "does-not-exist" not found'],
      [{ runtimeClassName: 'gvisor', overhead: { cpu: '1' } }, 'pods "p" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead'],
      [{ overhead: { cpu: '100m' } }, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
      [{ runtimeClassName: 'plain', overhead: { cpu: '100m' } }, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
      [{ runtimeClassName: 'gvisor', nodeSelector: { 'runtime/gvisor': 'false' } }, 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime/gvisor] = true; pod.spec.nodeSelector[runtime/gvisor] = false'],
    ];
    for (const [spec, message] of cases) {
      const res = await req(server, 'POST', PODS, pod('p', spec));
      expect(res.status, JSON.stringify(spec)).toBe(403);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', message });
    }
  });
});

describe.skipIf(!kubectlBin)('RuntimeClass admission through kubectl, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-runtimeclass-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl run with an unknown class is forbidden; with a class, the pod gets its overhead', async () => {
    const missing = await kubectl(kubectlBin!.path, 'run', 'lost', '--image=nginx', '--overrides={"spec":{"runtimeClassName":"kata"}}');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('pods "lost" is forbidden: runtimeclasses.node.k8s.io "kata" not found');
    await ok(kubectlBin!.path, 'apply', '-f', write('apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {memory: 160Mi}}\n'));
    await ok(kubectlBin!.path, 'run', 'kata-pod', '--image=nginx', '--overrides={"spec":{"runtimeClassName":"kata"}}');
    expect(await ok(kubectlBin!.path, 'get', 'pod', 'kata-pod', '-o', 'jsonpath={.spec.overhead.memory}')).toBe('160Mi');
  });
});
