import { group } from '@kapi/api-apps';
import { describe, expect, it } from 'vitest';
import { serializeFieldsV1, fromFieldsV1 } from './fields-v1.js';
import { updateManagedFields, type UpdateManagedFieldsInput } from './update.js';

const info = group.resources.find((r) => r.kind === 'Deployment')!;
const meta = { patchMeta: info.patchMeta, fieldTree: group.fieldTree, rootType: 'apps/v1/Deployment' };
// managedFields kube-apiserver served for `kubectl create deployment nginx-0930 --image=nginx` (v1.31).
const KUBECTL_CREATE_DEPLOYMENT = String.raw`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`;
const T1 = '2024-09-30T19:31:32Z';
const T2 = '2024-09-30T19:42:47Z';

type Obj = Record<string, any>;
const update = (input: Partial<UpdateManagedFieldsInput> & { old: unknown; updated: unknown; manager: string; now: string }) =>
  updateManagedFields({ apiVersion: 'apps/v1', meta, resetFields: ['status'], ...input });

// `kubectl create deployment nginx-0930 --image=nginx` as stored after defaulting.
const created: Obj = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'nginx-0930', namespace: 'default', uid: '5807ba64-97ff-4eb9-a044-a1ca9a361351', resourceVersion: '6409', generation: 1, creationTimestamp: T1, labels: { app: 'nginx-0930' } },
  spec: {
    replicas: 1, selector: { matchLabels: { app: 'nginx-0930' } },
    template: {
      metadata: { labels: { app: 'nginx-0930' } },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
        restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler',
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
  },
  status: {},
};

// The zero apps/v1 Deployment as Go serializes it: what kube compares a create against.
const goZeroDeployment = {
  metadata: { creationTimestamp: null },
  spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} },
  status: {},
};

describe('updateManagedFields', () => {
  it('a create owns every field set, byte for byte as kube-apiserver records kubectl create', () => {
    const mf = update({ old: undefined, updated: created, manager: 'kubectl-create', now: T1, createBase: goZeroDeployment });
    expect(mf).toHaveLength(1);
    expect(mf[0]).toMatchObject({ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1' });
    expect(Object.keys(mf[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    expect(JSON.stringify(mf[0]!.fieldsV1)).toBe(KUBECTL_CREATE_DEPLOYMENT);
  });

  it('by default treats metadata, spec and status as present before a create', () => {
    const fields = update({ old: undefined, updated: created, manager: 'kubectl-create', now: T1 })[0]!.fieldsV1 as Obj;
    expect(fields['f:spec']['.']).toBeUndefined();
    expect(fields['f:spec']['f:replicas']).toEqual({});
    // Without the Go zero value, nested structs count as added too.
    expect(fields['f:spec']['f:strategy']['.']).toEqual({});
  });

  it('takes changed fields from other managers and keeps their other fields (kubectl set image)', () => {
    const old = { ...created, metadata: { ...created.metadata, managedFields: update({ old: undefined, updated: created, manager: 'kubectl-create', now: T1, createBase: goZeroDeployment }) } };
    const updated: Obj = structuredClone(old);
    updated.spec.template.spec.containers[0].image = 'nginx:stable';
    const mf = update({ old, updated, manager: 'kubectl-patch', now: T2 });
    expect(mf.map((e) => [e.manager, e.time])).toEqual([['kubectl-create', T1], ['kubectl-patch', T2]]);
    expect(mf[1]!.fieldsV1).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:image': {} } } } } } });
    expect(serializeFieldsV1(fromFieldsV1(mf[0]!.fieldsV1))).toBe(KUBECTL_CREATE_DEPLOYMENT.replace('"f:image":{},', ''));
  });

  it('drops removed fields from every manager; a write that changes nothing changes nothing', () => {
    const a = update({ old: undefined, updated: { ...created, metadata: { ...created.metadata, labels: { app: 'x', tier: 'fe' } } }, manager: 'a', now: T1 });
    const old = { ...created, metadata: { ...created.metadata, labels: { app: 'x', tier: 'fe' }, managedFields: a } };
    const updated = structuredClone(old);
    delete updated.metadata.labels.tier;
    const mf = update({ old, updated, manager: 'b', now: T2 });
    expect(mf.map((e) => e.manager)).toEqual(['a']);
    expect((mf[0]!.fieldsV1 as Obj)['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(update({ old, updated: structuredClone(old), manager: 'b', now: T2 })).toEqual(a);
  });

  it('honours managedFields the client sends: [] resets them, valid ones replace the live ones', () => {
    const a = update({ old: undefined, updated: created, manager: 'a', now: T1 });
    const old = { ...created, metadata: { ...created.metadata, managedFields: a } };
    expect(update({ old, updated: { ...old, metadata: { ...old.metadata, managedFields: [] } }, manager: 'b', now: T2 })).toEqual([]);
    expect(update({ old, updated: { ...old, metadata: { ...old.metadata, managedFields: [{}] } }, manager: 'b', now: T2 })).toEqual([]);
    const mine = [{ manager: 'x', operation: 'Update', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } }];
    expect(update({ old, updated: { ...old, metadata: { ...old.metadata, managedFields: mine } }, manager: 'b', now: T2 })).toEqual(mine);
    // A status write never takes managedFields from the request.
    expect(update({ old, updated: { ...old, metadata: { ...old.metadata, managedFields: [] } }, manager: 'b', now: T2, subresource: 'status', resetFields: ['spec'] })).toEqual(a);
  });

  it('records a status write under its subresource, without spec', () => {
    const old = { ...created, metadata: { ...created.metadata, managedFields: [] } };
    const updated = { ...created, spec: { ...created.spec, replicas: 9 }, status: { replicas: 1 } };
    expect(update({ old, updated, manager: 'kube-controller-manager', now: T2, subresource: 'status', resetFields: ['spec'] })).toEqual([{
      manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time: T2, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status',
    }]);
  });

  it('keeps at most 10 update entries, merging the oldest into "ancient-changes"', () => {
    let obj: Obj = { ...created, metadata: { ...created.metadata } };
    for (let i = 0; i < 12; i++) {
      const updated = { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, [`l${i}`]: 'x' } } };
      const now = `2024-01-01T00:00:${String(i).padStart(2, '0')}Z`;
      obj = { ...updated, metadata: { ...updated.metadata, managedFields: update({ old: obj, updated, manager: `m${i}`, now }) } };
    }
    const mf = obj.metadata.managedFields as Obj[];
    expect(mf.map((e) => e.manager)).toEqual(['ancient-changes', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
    expect(mf[0]!.time).toBe('2024-01-01T00:00:02Z');
    expect(mf[0]!.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:l0': {}, 'f:l1': {}, 'f:l2': {} } } });
  });
});
