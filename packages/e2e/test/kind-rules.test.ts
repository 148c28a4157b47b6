import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, groupPlugin, type ApiServer, type GroupPlugin } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { loadGroups, repoRoot } from '../src/groups.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Every group as the sample server installs it: its package's plugin where it has one.
const plugins: GroupPlugin[] = [createCorePlugin()];
for (const group of await loadGroups()) {
  if (group.group === '') continue;
  const mod = (await import(pathToFileURL(join(repoRoot, 'packages', group.packageName.replace('@kapi/', ''), 'dist', 'index.js')).href)) as { plugin?: GroupPlugin };
  plugins.push(mod.plugin ?? groupPlugin(group));
}

let server: ApiServer;
beforeAll(async () => {
  server = createApiServer({ storage: createMemoryBackend(), plugins });
  await server.start();
});
afterAll(() => server.stop());

async function req(method: string, path: string, body?: unknown) {
  const res = await server.fetch(
    new Request(`http://kapi.test${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

const NS = '/api/v1/namespaces/default';
const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });

describe("kube's rules of the built-in kinds, through the group plugins", () => {
  it('Deployments, ReplicaSets, DaemonSets, StatefulSets: a selector that selects the template, pods that restart Always, a selector that never changes', async () => {
    const template = (labels: Record<string, string>, restartPolicy?: string) => ({
      metadata: { labels },
      spec: { containers: [{ name: 'c', image: 'busybox' }], ...(restartPolicy ? { restartPolicy } : {}) },
    });
    for (const [plural, kind, word] of [
      ['deployments', 'Deployment', 'deployment'],
      ['replicasets', 'ReplicaSet', 'deployment'],
      ['daemonsets', 'DaemonSet', 'daemonset'],
      ['statefulsets', 'StatefulSet', 'statefulset'],
    ]) {
      const path = `/apis/apps/v1/namespaces/default/${plural}`;
      const mismatch = await req('POST', path, { metadata: { name: 'mismatch' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'b' }) } });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.message).toBe(`${kind}.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: \`selector\` does not match template \`labels\``);
      expect(mismatch.body.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels' })]);
      const empty = await req('POST', path, { metadata: { name: 'empty' }, spec: { selector: {}, template: template({ app: 'b' }) } });
      expect(empty.status).toBe(422);
      expect(empty.body.message).toContain(`empty selector is invalid for ${word}`);
      const restart = await req('POST', path, { metadata: { name: 'restart' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }, 'Never') } });
      expect(restart.status).toBe(422);
      expect(restart.body.message).toContain('spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"');
      const ok = await req('POST', path, { metadata: { name: 'ok' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a', extra: 'x' }) } });
      expect(ok.status).toBe(201);
      const moved = await req('PUT', `${path}/ok`, { ...ok.body, spec: { ...ok.body.spec, selector: { matchLabels: { app: 'a', extra: 'x' } } } });
      expect(moved.status).toBe(422);
      expect(moved.body.message).toContain('spec.selector: Invalid value:');
      expect(moved.body.message).toContain('field is immutable');
    }
  });

  it('PersistentVolumeClaims: Pending on create; a Bound claim may grow if its StorageClass allows expansion', async () => {
    const CLAIMS = `${NS}/persistentvolumeclaims`;
    await req('POST', '/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'expandable' }, provisioner: 'example.com/disk', allowVolumeExpansion: true });
    const claim = await req('POST', CLAIMS, {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'expandable', resources: { requests: { storage: '1Gi' } } },
    });
    expect(claim.body.status).toEqual({ phase: 'Pending' });
    expect(claim.body.spec.volumeMode).toBe('Filesystem');
    const resize = (body: any, storage: string) => req('PUT', `${CLAIMS}/data`, { ...body, spec: { ...body.spec, resources: { requests: { storage } } } });
    const immutable = 'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
    // Pending: the request is as immutable as the rest.
    expect(await resize(claim.body, '2Gi')).toMatchObject({ status: 422, body: { message: immutable } });
    const bound = await req('PUT', `${CLAIMS}/data/status`, { ...claim.body, status: { phase: 'Bound', capacity: { storage: '1Gi' } } });
    expect(bound.status).toBe(200);
    const grown = await resize(bound.body, '2Gi');
    expect(grown.status).toBe(200);
    expect(grown.body.spec.resources.requests.storage).toBe('2Gi');
    expect(await resize(grown.body, '1Gi')).toMatchObject({
      status: 422,
      body: { message: 'PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity' },
    });
    const moved = await req('PUT', `${CLAIMS}/data`, { ...grown.body, spec: { ...grown.body.spec, accessModes: ['ReadWriteMany'] } });
    expect(moved).toMatchObject({ status: 422, body: { message: immutable } });
  });

  it("PersistentVolumeClaims: a spec kube refuses is refused with kube's fields and messages", async () => {
    const CLAIMS = `${NS}/persistentvolumeclaims`;
    const causes = async (name: string, spec: Record<string, unknown>) => {
      const res = await req('POST', CLAIMS, { metadata: { name }, spec });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
    };
    // What `kubectl create` of a claim written from memory often lacks.
    expect(await causes('bare', {})).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
    expect(
      await causes('refs', {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '-1Gi' } },
        selector: { matchLabels: { 'bad key!': 'x' } },
        dataSource: { apiGroup: 'Snapshot.Storage', kind: 'VolumeSnapshot', name: '' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'src', namespace: 'Other_NS' },
      }),
    ).toEqual([
      expect.stringMatching(/^spec\.selector\.matchLabels: Invalid value: "bad key!": name part must consist of/),
      'spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero',
      'spec.dataSource.name: Required value',
      expect.stringMatching(/^spec\.dataSource\.apiGroup: Invalid value: "Snapshot.Storage": a lowercase RFC 1123 subdomain/),
      expect.stringMatching(/^spec\.dataSourceRef\.namespace: Invalid value: "Other_NS": a lowercase RFC 1123 label/),
      'spec: Invalid value: "spec.dataSource": may not be specified when dataSourceRef.namespace is specified',
    ]);
    // Updates are checked the same way, on top of the immutability rules.
    const ok = await req('POST', CLAIMS, { metadata: { name: 'fine' }, spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } } });
    expect(ok.status).toBe(201);
    const emptied = await req('PUT', `${CLAIMS}/fine`, { ...ok.body, spec: { ...ok.body.spec, accessModes: [] } });
    expect(emptied.status).toBe(422);
    expect(emptied.body.details.causes.map((c: any) => c.field)).toEqual(['spec.accessModes', 'spec']);
  });

  it('StorageClasses keep their provisioner and parameters; PriorityClasses their value, and system- names are reserved', async () => {
    const sc = await req('POST', '/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'fast' }, provisioner: 'example.com/disk', parameters: { type: 'ssd' } });
    expect(sc.body).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    const changed = await req('PUT', '/apis/storage.k8s.io/v1/storageclasses/fast', { ...sc.body, parameters: { type: 'hdd' } });
    expect(changed.body.message).toBe('StorageClass.storage.k8s.io "fast" is invalid: parameters: Forbidden: updates to parameters are forbidden.');

    await req('POST', '/apis/storage.k8s.io/v1/storageclasses', {
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/disk',
    });
    const res = await server.fetch(new Request('http://kapi.test/apis/storage.k8s.io/v1/storageclasses', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
    const rows = ((await res.json()) as any).rows.map((r: any) => r.cells.slice(0, 5));
    expect(rows).toEqual([
      ['expandable', 'example.com/disk', 'Delete', 'Immediate', true],
      ['fast', 'example.com/disk', 'Delete', 'Immediate', false],
      ['standard (default)', 'example.com/disk', 'Delete', 'Immediate', false],
    ]);

    const pc = await req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 });
    expect(pc.body.preemptionPolicy).toBe('PreemptLowerPriority');
    const revalued = await req('PUT', '/apis/scheduling.k8s.io/v1/priorityclasses/high', { ...pc.body, value: 2000 });
    expect(revalued.body.message).toBe('PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: may not be changed in an update.');
    const reserved = await req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'system-mine' }, value: 10 });
    expect(reserved.status).toBe(422);
    expect(reserved.body.message).toContain("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only");
    const system = await req('GET', '/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical');
    expect(system.body).toMatchObject({ value: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it("kube's Priority admission: pods get their class's priority, an unknown class is 403, one global default", async () => {
    const plain = await req('POST', `${NS}/pods`, pod('plain'));
    expect(plain.body.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    const critical = await req('POST', `${NS}/pods`, { ...pod('critical'), spec: { ...pod('critical').spec, priorityClassName: 'system-node-critical' } });
    expect(critical.body.spec).toMatchObject({ priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
    const unknown = await req('POST', `${NS}/pods`, { ...pod('unknown'), spec: { ...pod('unknown').spec, priorityClassName: 'nope' } });
    expect(unknown).toMatchObject({ status: 403, body: { message: 'pods "unknown" is forbidden: no PriorityClass with name nope was found' } });
    const own = await req('POST', `${NS}/pods`, { ...pod('own'), spec: { ...pod('own').spec, priority: 5 } });
    expect(own.body.message).toBe(
      'pods "own" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );

    expect((await req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'default-low' }, value: 100, globalDefault: true })).status).toBe(201);
    const second = await req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'default-two' }, value: 200, globalDefault: true });
    expect(second.body.message).toBe(
      'priorityclasses.scheduling.k8s.io "default-two" is forbidden: PriorityClass default-low is already marked as default. Only one default can exist',
    );
    const defaulted = await req('POST', `${NS}/pods`, pod('defaulted'));
    expect(defaulted.body.spec).toMatchObject({ priorityClassName: 'default-low', priority: 100 });
    await req('DELETE', '/apis/scheduling.k8s.io/v1/priorityclasses/default-low');
  });

  it("kube's DefaultTolerationSeconds admission: pods tolerate not-ready and unreachable nodes for 300s", async () => {
    const created = await req('POST', `${NS}/pods`, pod('tolerant'));
    expect(created.body.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('Jobs: pods that restart Always are refused; a manual selector must select the template', async () => {
    const jobs = '/apis/batch/v1/namespaces/default/jobs';
    const always = await req('POST', jobs, { metadata: { name: 'always' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } });
    expect(always.body.message).toBe('Job.batch "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    const manual = await req('POST', jobs, {
      metadata: { name: 'manual' },
      spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'c' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    expect(manual.body.message).toBe('Job.batch "manual" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`');
    const ok = await req('POST', jobs, { metadata: { generateName: 'gen-' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
    expect(ok.status).toBe(201);
    // The generated name is in the template's labels: the selector is made after the name, as in kube's Validate.
    expect(ok.body.spec.template.metadata.labels['batch.kubernetes.io/job-name']).toBe(ok.body.metadata.name);
    expect(ok.body.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed' });
    // A suspended Job that never started may be moved to other nodes (JobMutableNodeSchedulingDirectives).
    const suspended = await req('POST', jobs, { metadata: { name: 'later' }, spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
    const withTemplate = (spec: object) => ({ ...suspended.body, spec: { ...suspended.body.spec, template: { ...suspended.body.spec.template, spec: { ...suspended.body.spec.template.spec, ...spec } } } });
    const moved = await req('PUT', `${jobs}/later`, withTemplate({ nodeSelector: { zone: 'b' } }));
    expect(moved.status).toBe(200);
    expect(moved.body.spec.template.spec.nodeSelector).toEqual({ zone: 'b' });
    const recontained = await req('PUT', `${jobs}/later`, { ...withTemplate({ containers: [{ name: 'c', image: 'alpine' }] }), metadata: moved.body.metadata });
    expect(recontained).toMatchObject({ status: 422, body: { message: 'Job.batch "later" is invalid: spec.template: Invalid value: field is immutable' } });
  });

  it('workload controllers are defaulted as kube defaults them', async () => {
    const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    const sts = await req('POST', '/apis/apps/v1/namespaces/default/statefulsets', { metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template } });
    expect(sts.body.spec).toMatchObject({
      replicas: 1, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(sts.body.status).toEqual({ replicas: 0, availableReplicas: 0 });
    const ds = await req('POST', '/apis/apps/v1/namespaces/default/daemonsets', { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'x' } }, template } });
    expect(ds.body.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    const rc = await req('POST', `${NS}/replicationcontrollers`, { metadata: { name: 'rc' }, spec: { template } });
    expect(rc.body.spec.selector).toEqual({ app: 'x' });
    expect(rc.body.metadata.labels).toEqual({ app: 'x' });
    expect(rc.body.spec.replicas).toBe(1);
  });

  it('bindings put a pod on a node once; a second binding is 409', async () => {
    await req('POST', `${NS}/pods`, pod('p1'));
    await req('POST', `${NS}/pods`, pod('p2'));
    const first = await req('POST', `${NS}/pods/p1/binding`, { metadata: { name: 'p1' }, target: { kind: 'Node', name: 'node-a' } });
    expect(first).toMatchObject({ status: 201, body: { kind: 'Status', status: 'Success' } });
    expect((await req('GET', `${NS}/pods/p1`)).body.spec.nodeName).toBe('node-a');
    const again = await req('POST', `${NS}/pods/p1/binding`, { metadata: { name: 'p1' }, target: { name: 'node-b' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('pod p1 is already assigned to node "node-a"');
    const viaCollection = await req('POST', `${NS}/bindings`, { metadata: { name: 'p2' }, target: { name: 'node-b' } });
    expect(viaCollection.status).toBe(201);
    expect((await req('GET', `${NS}/pods?fieldSelector=spec.nodeName%3Dnode-b`)).body.items.map((p: any) => p.metadata.name)).toEqual(['p2']);
    // A binding is no object of its own: nothing is stored under bindings.
    expect((await req('GET', `${NS}/bindings`)).status).toBe(405);
  });

  it('events.k8s.io Events print as kube prints them (core Events\' columns)', async () => {
    const created = await req('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      metadata: { name: 'e1' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Start',
      reason: 'Started',
      type: 'Normal',
      note: 'hello ',
      regarding: { kind: 'Pod', name: 'p1', namespace: 'default' },
    });
    expect(created.status).toBe(201);
    const res = await server.fetch(
      new Request('http://kapi.test/apis/events.k8s.io/v1/namespaces/default/events', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    const table = (await res.json()) as any;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    expect(table.rows[0].cells.slice(2)).toEqual(['Normal', 'Started', 'pod/p1', 'hello']);
  });

  it('field selectors are the kind\'s own; names follow the kind\'s rule', async () => {
    expect((await req('GET', '/apis/batch/v1/jobs?fieldSelector=status.successful%3D0')).status).toBe(200);
    const unsupported = await req('GET', '/apis/apps/v1/deployments?fieldSelector=spec.replicas%3D1');
    expect(unsupported).toMatchObject({ status: 400, body: { message: 'field label not supported: spec.replicas' } });
    const badService = await req('POST', `${NS}/services`, { metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } });
    expect(badService.status).toBe(422);
    expect(badService.body.message).toContain('a DNS-1035 label must consist of lower case alphanumeric characters');
    const role = await req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'system:team:reader' }, rules: [] });
    expect(role.status).toBe(201);
  });
});
