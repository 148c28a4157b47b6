import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { plugin } from './plugin.js';

const JOBS = '/apis/batch/v1/namespaces/ns/jobs';
const job = (name: string, suspend: boolean) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { suspend, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
});
const nodeAffinity = {
  requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] },
};
const podAffinity = {
  requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }],
};

describe('Job template updates (kube 1.33: JobMutableNodeSchedulingDirectives)', () => {
  let server: ApiServer;
  const req = async (method: string, path: string, body?: unknown) => {
    const headers = { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json', accept: 'application/json' };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const patch = (name: string, template: unknown) => req('PATCH', `${JOBS}/${name}`, { spec: { template } });
  const immutable = (name: string) => ({
    status: 422,
    body: {
      reason: 'Invalid',
      message: `Job.batch "${name}" is invalid: spec.template: Invalid value: field is immutable`,
      details: { name, group: 'batch', kind: 'Job', causes: [{ reason: 'FieldValueInvalid', field: 'spec.template', message: 'Invalid value: field is immutable' }] },
    },
  });

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(), plugin] });
    await server.start();
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'ns' } })).status).toBe(201);
    for (const [name, suspend] of [['suspended', true], ['running', false], ['started', true]] as const) {
      expect((await req('POST', JOBS, job(name, suspend))).status).toBe(201);
    }
    // Suspended after it ran: it has a start time.
    const started = (await req('GET', `${JOBS}/started`)).body;
    expect((await req('PUT', `${JOBS}/started/status`, { ...started, status: { startTime: '2026-01-01T00:00:00Z' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it('a suspended Job that never started may change its node selector, affinity, tolerations, scheduling gates, labels and annotations', async () => {
    const res = await patch('suspended', {
      metadata: { labels: { team: 'a' }, annotations: { note: 'moved' } },
      spec: {
        nodeSelector: { disk: 'ssd' },
        affinity: { nodeAffinity },
        tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
        schedulingGates: [{ name: 'example.com/quota' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.spec.template.metadata.labels).toMatchObject({ team: 'a', 'batch.kubernetes.io/job-name': 'suspended' });
    expect(res.body.spec.template.metadata.annotations).toEqual({ note: 'moved' });
    expect(res.body.spec.template.spec).toMatchObject({
      nodeSelector: { disk: 'ssd' },
      affinity: { nodeAffinity },
      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      schedulingGates: [{ name: 'example.com/quota' }],
    });
    // ... and take them away again: an affinity that held only a node affinity may go.
    const cleared = await patch('suspended', { metadata: { annotations: null }, spec: { nodeSelector: null, affinity: null, tolerations: null, schedulingGates: null } });
    expect(cleared.status).toBe(200);
    for (const field of ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates']) expect(cleared.body.spec.template.spec).not.toHaveProperty(field);
  });

  it('but not its containers, a pod affinity or any other field of the pod spec', async () => {
    expect(await patch('suspended', { spec: { containers: [{ name: 'c', image: 'alpine' }] } })).toMatchObject(immutable('suspended'));
    expect(await patch('suspended', { spec: { affinity: { podAffinity } } })).toMatchObject(immutable('suspended'));
    expect(await patch('suspended', { spec: { activeDeadlineSeconds: 60 } })).toMatchObject(immutable('suspended'));
  });

  it('a Job that is not suspended, or that started before, keeps its template as it is', async () => {
    expect(await patch('running', { spec: { nodeSelector: { disk: 'ssd' } } })).toMatchObject(immutable('running'));
    expect(await patch('running', { metadata: { annotations: { note: 'x' } } })).toMatchObject(immutable('running'));
    expect(await patch('started', { spec: { tolerations: [{ key: 'gpu', operator: 'Exists' }] } })).toMatchObject(immutable('started'));
  });

  it('suspending a running Job in the same update does not open the template (the stored Job decides)', async () => {
    expect(await req('PATCH', `${JOBS}/running`, { spec: { suspend: true, template: { spec: { nodeSelector: { disk: 'ssd' } } } } })).toMatchObject(immutable('running'));
  });
});
