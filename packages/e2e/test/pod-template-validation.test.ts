// kube 1.33 validates the pod template of every kind that holds one (ValidatePodTemplateSpec, with the pod spec's
// checks) and adds each kind's own rules: restart Always and no active deadline for Deployments, ReplicaSets,
// DaemonSets, StatefulSets and ReplicationControllers; OnFailure or Never for Jobs and CronJobs; no ephemeral
// containers anywhere. In-process for the exact causes, then kubectl and the Python client against the built server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { serverPlugins } from '@kapi/server';
import { kubectlBinaries, kubectlOf, runAsync } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const kubectlBin = kubectlBinaries()[0];

const NS = '/namespaces/default';
const PATHS: Record<string, string> = {
  Deployment: `/apis/apps/v1${NS}/deployments`,
  ReplicaSet: `/apis/apps/v1${NS}/replicasets`,
  DaemonSet: `/apis/apps/v1${NS}/daemonsets`,
  StatefulSet: `/apis/apps/v1${NS}/statefulsets`,
  Job: `/apis/batch/v1${NS}/jobs`,
  CronJob: `/apis/batch/v1${NS}/cronjobs`,
  ReplicationController: `/api/v1${NS}/replicationcontrollers`,
  PodTemplate: `/api/v1${NS}/podtemplates`,
};

const labels = { app: 'web' };
const template = (spec: Record<string, unknown>, meta: Record<string, unknown> = { labels }) => ({ metadata: meta, spec });
const app = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'nginx', ...extra });
/** A valid object of `kind` whose pod template has the given spec. */
function objectOf(kind: string, name: string, podSpec: Record<string, unknown>, meta?: Record<string, unknown>): Record<string, unknown> {
  const t = template(podSpec, meta);
  const metadata = { name };
  switch (kind) {
    case 'Job':
      return { metadata, spec: { template: t } };
    case 'CronJob':
      return { metadata, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: t } } } };
    case 'ReplicationController':
      return { metadata, spec: { selector: labels, template: t } };
    case 'PodTemplate':
      return { metadata, template: t };
    default:
      return { metadata, spec: { selector: { matchLabels: labels }, template: t, ...(kind === 'StatefulSet' ? { serviceName: 'web' } : {}) } };
  }
}

async function req(server: ApiServer, method: string, path: string, body?: unknown) {
  const headers = { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

describe('pod templates validated as kube 1.33 validates them', { timeout: 30_000 }, () => {
  let server: ApiServer;
  let n = 0;
  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: serverPlugins() });
    await server.start();
  });
  afterAll(() => server?.stop());

  /** The causes of the 422 a create of `body` as `kind` gets, as "field: message". */
  const refused = async (kind: string, body: Record<string, unknown>) => {
    const res = await req(server, 'POST', PATHS[kind], body);
    expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { kind } });
    return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
  };
  const prefix: Record<string, string> = { CronJob: 'spec.jobTemplate.spec.template', PodTemplate: 'template' };
  const at = (kind: string) => prefix[kind] ?? 'spec.template';
  const running = ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'ReplicationController'];
  const runToCompletion = ['Job', 'CronJob'];
  const restartFor = (kind: string) => (runToCompletion.includes(kind) ? 'Never' : 'Always');

  // kube checks a StatefulSet's template for its labels and annotations only: its mounts may name volume claim templates
  const podSpecChecked = Object.keys(PATHS).filter((k) => k !== 'StatefulSet');

  it('every kind refuses a template whose pod spec kube refuses, at the template path', async () => {
    for (const kind of podSpecChecked) {
      const causes = await refused(kind, objectOf(kind, `bad${n++}`, { restartPolicy: restartFor(kind), containers: [{ name: 'app' }, app({ volumeMounts: [{ name: 'data', mountPath: '/d' }] })] }));
      expect(causes, kind).toEqual([
        `${at(kind)}.spec.containers[0].image: Required value`,
        `${at(kind)}.spec.containers[1].volumeMounts[0].name: Not found: "data"`,
        `${at(kind)}.spec.containers[1].name: Duplicate value: "app"`,
      ]);
    }
  });

  it('every kind refuses a template without containers, with bad labels or with ephemeral containers', async () => {
    for (const kind of podSpecChecked) {
      const none = await refused(kind, objectOf(kind, `none${n++}`, { restartPolicy: restartFor(kind), containers: [] }));
      expect(none, kind).toEqual([`${at(kind)}.spec.containers: Required value`]);
      const ephemeral = await refused(kind, objectOf(kind, `eph${n++}`, { restartPolicy: restartFor(kind), containers: [app()], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }));
      expect(ephemeral, kind).toEqual([`${at(kind)}.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template`]);
    }
    // labels and annotations are reported at `<template>.labels` and `.annotations`, without `metadata`, as kube does
    const badLabels = await refused('PodTemplate', objectOf('PodTemplate', 'labels', { containers: [app()] }, { labels: { 'bad key!': 'v' }, annotations: { '-x': '1' } }));
    expect(badLabels).toHaveLength(2);
    expect(badLabels[0]).toMatch(/^template\.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters/);
    expect(badLabels[1]).toMatch(/^template\.annotations: Invalid value: "-x": name part must consist of alphanumeric characters/);
  });

  it('controllers that keep pods running want restart Always and no active deadline; Jobs want OnFailure or Never', async () => {
    const owner: Record<string, string> = { Deployment: 'ReplicaSet', ReplicaSet: 'ReplicaSet', DaemonSet: 'DaemonSet', StatefulSet: 'StatefulSet', ReplicationController: 'ReplicationController' };
    for (const kind of running) {
      const causes = await refused(kind, objectOf(kind, `deadline${n++}`, { restartPolicy: 'OnFailure', activeDeadlineSeconds: 60, containers: [app()] }));
      expect(causes, kind).toEqual([
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
        `spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ${owner[kind]} is not Supported`,
      ]);
    }
    for (const kind of runToCompletion) {
      // Always, given or defaulted, is "Required": kube cannot tell them apart after defaulting
      for (const restartPolicy of ['Always', undefined]) {
        const causes = await refused(kind, objectOf(kind, `always${n++}`, { restartPolicy, containers: [app()] }));
        expect(causes, kind).toEqual([`${at(kind)}.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`]);
      }
    }
    const withPolicy = await refused('Job', { ...objectOf('Job', 'pfp', { restartPolicy: 'OnFailure', containers: [app()] }), spec: { ...(objectOf('Job', 'pfp', { restartPolicy: 'OnFailure', containers: [app()] }).spec as object), podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } } });
    expect(withPolicy).toEqual(['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']);
    const selected = await refused('CronJob', { metadata: { name: 'sel' }, spec: { schedule: '@daily', jobTemplate: { spec: { selector: { matchLabels: labels }, manualSelector: true, template: template({ restartPolicy: 'Never', containers: [app()] }) } } } });
    expect(selected).toEqual([
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"app":"web"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });

  it('a StatefulSet whose pods mount a volume claim template is created; its template labels are still checked', async () => {
    const sts = objectOf('StatefulSet', 'db', { containers: [app({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] });
    (sts.spec as Record<string, unknown>).volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const created = await req(server, 'POST', PATHS.StatefulSet, sts);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const causes = await refused('StatefulSet', objectOf('StatefulSet', 'db2', { containers: [app()] }, { labels: { ...labels, 'bad key!': 'v' } }));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatch(/^spec\.template\.labels: Invalid value: "bad key!"/);
  });

  it('valid objects of every kind are created; scale and status updates of a stored object work', async () => {
    for (const kind of Object.keys(PATHS)) {
      const res = await req(server, 'POST', PATHS[kind], objectOf(kind, `good-${kind.toLowerCase()}`, { restartPolicy: restartFor(kind), containers: [app()] }));
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    const name = `${PATHS.Deployment}/good-deployment`;
    expect((await req(server, 'PATCH', `${name}/scale`, { spec: { replicas: 3 } })).status).toBe(200);
    expect((await req(server, 'PATCH', `${name}/status`, { status: { replicas: 3 } })).status).toBe(200);
    // an update of the template is judged again
    const broken = await req(server, 'PATCH', name, { spec: { template: { spec: { containers: [{ name: 'app', image: '' }] } } } });
    expect(broken.status).toBe(422);
    expect(broken.body.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual(['spec.template.spec.containers[0].image: Required value']);
  });
});

describe.skipIf(!kubectlBin)('pod templates through kubectl and the Python client, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-pod-templates-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it("kubectl apply of a Deployment without an image shows kube's reason; kubectl create job/cronjob make valid ones", async () => {
    const bad = write(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n' +
        '  template:\n    metadata: {labels: {app: web}}\n    spec:\n      activeDeadlineSeconds: 30\n      containers: [{name: web}]\n',
    );
    const res = await kubectl(kubectlBin!.path, 'apply', '-f', bad);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The Deployment "web" is invalid:');
    expect(res.stderr).toContain('* spec.template.spec.containers[0].image: Required value');
    expect(res.stderr).toContain('* spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported');
    await ok(kubectlBin!.path, 'create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *');
    await ok(kubectlBin!.path, 'create', 'job', 'once', '--from=cronjob/tick');
    expect(await ok(kubectlBin!.path, 'get', 'job', 'once', '-o', 'jsonpath={.spec.template.spec.restartPolicy}')).toBe('OnFailure');
  });

  it.skipIf(!existsSync(PYTHON))('the Python client: a Job that restarts Always and a Deployment without an image are 422; a Job and its status are written', async () => {
    const res = await runAsync(PYTHON, [join(import.meta.dirname, 'python/pod-templates.py'), server.kubeconfig, 'default']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      always: {
        status: 422,
        message: 'Job.batch "py-always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
        causes: ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
      },
      noImage: {
        status: 422,
        message: 'Deployment.apps "py-web" is invalid: spec.template.spec.containers[0].image: Required value',
        causes: ['spec.template.spec.containers[0].image: Required value'],
      },
      created: 'py-job',
      active: 1,
    });
  });
});
