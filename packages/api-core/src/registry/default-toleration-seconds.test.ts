import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCore, type TestServer } from './serve-for-tests.js';

const PODS = '/api/v1/namespaces/ns/pods';
const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const pod = (name: string, tolerations?: unknown[]) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...(tolerations ? { tolerations } : {}) },
});

describe("kube's DefaultTolerationSeconds admission", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await serveCore();
  });
  afterAll(async () => {
    await t.server.stop?.();
  });

  it('gives a new pod 300s tolerations of not-ready and unreachable nodes', async () => {
    const res = await t.req('POST', PODS, pod('plain'));
    expect(res.status).toBe(201);
    expect(res.body.spec.tolerations).toEqual([notReady, unreachable]);
    expect((await t.req('GET', `${PODS}/plain`)).body.spec.tolerations).toEqual([notReady, unreachable]);
  });

  it("appends to the pod's own tolerations; a NoExecute or any-effect toleration of the key is kept as it is", async () => {
    const own = { key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' };
    expect((await t.req('POST', PODS, pod('own', [own]))).body.spec.tolerations).toEqual([own, notReady, unreachable]);

    const short = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
    expect((await t.req('POST', PODS, pod('short', [short]))).body.spec.tolerations).toEqual([short, notReady]);

    const anyEffect = { key: 'node.kubernetes.io/not-ready', operator: 'Exists' };
    expect((await t.req('POST', PODS, pod('any-effect', [anyEffect]))).body.spec.tolerations).toEqual([anyEffect, unreachable]);

    // A NoSchedule toleration of the key does not tolerate its NoExecute taint.
    const noSchedule = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' };
    expect((await t.req('POST', PODS, pod('no-schedule', [noSchedule]))).body.spec.tolerations).toEqual([noSchedule, notReady, unreachable]);
  });

  it('adds nothing to a pod that tolerates every taint (empty key, operator Exists)', async () => {
    const everything = { operator: 'Exists' };
    expect((await t.req('POST', PODS, pod('everything', [everything]))).body.spec.tolerations).toEqual([everything]);
    const allNoExecute = { operator: 'Exists', effect: 'NoExecute' };
    expect((await t.req('POST', PODS, pod('all-no-execute', [allNoExecute]))).body.spec.tolerations).toEqual([allNoExecute]);
  });

  it('puts them back on an update that leaves them out, as kube (which also admits pod UPDATEs) does', async () => {
    const stored = (await t.req('GET', `${PODS}/plain`)).body;
    const res = await t.req('PUT', `${PODS}/plain`, { ...stored, spec: { ...stored.spec, tolerations: undefined } });
    expect(res.status).toBe(200);
    expect(res.body.spec.tolerations).toEqual([notReady, unreachable]);
  });

  it('leaves subresource writes alone: pods/status keeps the tolerations as stored', async () => {
    const stored = (await t.req('GET', `${PODS}/everything`)).body;
    const res = await t.req('PUT', `${PODS}/everything/status`, { ...stored, status: { ...stored.status, phase: 'Running' } });
    expect(res.status).toBe(200);
    expect(res.body.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });
});
