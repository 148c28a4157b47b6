import { group } from '@kapi/api-apps';
import { isStatusError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyObject, type ApplyInput } from './apply.js';
import { ApplyConflictError } from './conflicts.js';
import { ApplyInvalidError } from './invalid.js';
import { updateManagedFields } from './update.js';

const info = group.resources.find((r) => r.kind === 'Deployment')!;
const meta = { patchMeta: info.patchMeta, fieldTree: group.fieldTree, rootType: 'apps/v1/Deployment' };
const T1 = '2024-05-01T10:00:00Z';
const T2 = '2024-05-01T10:05:00Z';
const T3 = '2024-05-01T10:10:00Z';

type Obj = Record<string, any>;
const deployment = (spec: Obj | undefined, metadata: Obj = {}): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...metadata }, ...(spec ? { spec } : {}),
});
const apply = (live: Obj | undefined, applied: Obj, manager: string, now: string, extra: Partial<ApplyInput> = {}) => {
  const result = applyObject({ live, applied, manager, apiVersion: 'apps/v1', force: false, meta, now, resetFields: ['status'], ...extra });
  return { ...result, object: result.object as Obj };
};
const fieldsOf = (obj: Obj, manager: string) => obj.metadata.managedFields.find((e: Obj) => e.manager === manager)?.fieldsV1;
const catchErr = (fn: () => unknown): any => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
};

const template = (containers: Obj[]) => ({ metadata: { labels: { app: 'web' } }, spec: { containers } });

describe('applyObject', () => {
  it('answers an object that shares nothing with its inputs, changed or not', () => {
    const first = deployment({ replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template([{ name: 'a', image: 'nginx:1' }]) }, { labels: { app: 'web' } });
    const live = apply(undefined, first, 'kubectl', T1).object;
    const liveCopy = structuredClone(live);
    for (const applied of [first, deployment({ ...first.spec, replicas: 4 }, { labels: { app: 'web' } })]) {
      const appliedCopy = structuredClone(applied);
      const { object } = apply(live, applied, 'kubectl', T2);
      // Change every object and list in the answer: neither input may see it.
      const scribble = (v: unknown): void => {
        if (Array.isArray(v)) (v.push('scribbled'), v.slice(0, -1).forEach(scribble));
        else if (v && typeof v === 'object') for (const [k, child] of Object.entries(v)) (scribble(child), ((v as Obj)[`${k}-scribbled`] = 1));
      };
      scribble(object);
      expect(live).toEqual(liveCopy);
      expect(applied).toEqual(appliedCopy);
    }
  });

  it('creates: merges into nothing and records the applier', () => {
    const applied = deployment({ replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template([{ name: 'a', image: 'nginx:1' }]) }, { labels: { app: 'web' } });
    const frozen = structuredClone(applied);
    const { object, managedFields, changed } = apply(undefined, applied, 'kubectl', T1);
    expect(changed).toBe(true);
    expect(applied).toEqual(frozen);
    expect(managedFields).toEqual([{
      manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {}, 'f:selector': {},
          'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      },
    }]);
    expect(object).toEqual({ ...applied, metadata: { ...applied.metadata, managedFields } });
  });

  it('re-applying without a field removes it, unless another manager also owns it', () => {
    const v1 = deployment({ replicas: 3, paused: true, minReadySeconds: 5 }, { labels: { app: 'web', tier: 'fe' } });
    const a = apply(undefined, v1, 'a', T1).object;
    // b applies the same paused value: shared ownership, no conflict.
    const b = apply(a, deployment({ paused: true }), 'b', T2).object;
    expect(fieldsOf(b, 'b')).toEqual({ 'f:spec': { 'f:paused': {} } });
    const again = apply(b, deployment({ replicas: 3 }, { labels: { app: 'web' } }), 'a', T3).object;
    expect(again.spec).toEqual({ replicas: 3, paused: true });
    expect(again.metadata.labels).toEqual({ app: 'web' });
    expect(fieldsOf(again, 'a')).toEqual({ 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } });
    // b's apply changed nothing, so (as in kube) its entry got no time; entries sort by time within Apply.
    expect(again.metadata.managedFields.map((e: Obj) => [e.manager, e.time])).toEqual([['b', undefined], ['a', T3]]);
  });

  it('conflicts on a field another applier set to another value; force takes it over', () => {
    const a = apply(undefined, deployment({ replicas: 3, paused: false }), 'a', T1).object;
    const err = catchErr(() => apply(a, deployment({ replicas: 5 }), 'b', T2));
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect(isStatusError(err)).toBe(true);
    expect(err.code).toBe(409);
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.replicas');
    expect(err.conflicts).toEqual([{ manager: 'a', operation: 'Apply', apiVersion: 'apps/v1', field: '.spec.replicas' }]);

    const forced = apply(a, deployment({ replicas: 5 }), 'b', T2, { force: true }).object;
    expect(forced.spec).toEqual({ replicas: 5, paused: false });
    expect(fieldsOf(forced, 'a')).toEqual({ 'f:spec': { 'f:paused': {} } });
    expect(fieldsOf(forced, 'b')).toEqual({ 'f:spec': { 'f:replicas': {} } });
    // a now conflicts with b in turn, and lists several fields grouped by manager.
    const err2 = catchErr(() => apply(forced, deployment({ replicas: 3, paused: true }), 'c', T3));
    expect(err2.message).toBe('Apply failed with 2 conflicts: conflicts with "a":\n- .spec.paused\nconflicts with "b":\n- .spec.replicas');
  });

  it('merges map-lists by key, each element owned by its applier', () => {
    const a = apply(undefined, deployment({ template: template([{ name: 'a', image: 'nginx:1', ports: [{ containerPort: 80 }] }]) }), 'a', T1).object;
    const b = apply(a, deployment({ template: { spec: { containers: [{ name: 'b', image: 'redis:7' }] } } }), 'b', T2).object;
    expect(b.spec.template.spec.containers).toEqual([{ name: 'a', image: 'nginx:1', ports: [{ containerPort: 80 }] }, { name: 'b', image: 'redis:7' }]);
    expect(fieldsOf(b, 'b')).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } });
    expect(fieldsOf(b, 'a')['f:spec']['f:template']['f:spec']['f:containers']).toEqual({
      'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
    });
    // b changing a's image conflicts at the element's field.
    const err = catchErr(() => apply(b, deployment({ template: { spec: { containers: [{ name: 'a', image: 'nginx:2' }] } } }), 'b', T3));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.template.spec.containers[name="a"].image');
    // a dropping its container removes it; b's stays.
    const c = apply(b, deployment({ template: template([]) }), 'a', T3).object;
    expect(c.spec.template.spec.containers).toEqual([{ name: 'b', image: 'redis:7' }]);
  });

  it('unions set-lists (finalizers), each value owned by its applier', () => {
    const a = apply(undefined, deployment(undefined, { finalizers: ['example.com/a'] }), 'a', T1).object;
    const b = apply(a, deployment(undefined, { finalizers: ['example.com/b'] }), 'b', T2).object;
    expect(b.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
    expect(fieldsOf(b, 'b')).toEqual({ 'f:metadata': { 'f:finalizers': { 'v:"example.com/b"': {} } } });
    const c = apply(b, deployment({ paused: true }), 'a', T3).object;
    expect(c.metadata.finalizers).toEqual(['example.com/b']);
  });

  it('replaces atomic lists and maps whole, owning them as one leaf', () => {
    const a = apply(undefined, deployment({ selector: { matchLabels: { app: 'web', tier: 'x' } }, template: template([{ name: 'a', command: ['sh', '-c', 'x'] }]) }), 'a', T1).object;
    const b = apply(a, deployment({ selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'a', command: ['true'] }] } } }), 'b', T2, { force: true }).object;
    expect(b.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(b.spec.template.spec.containers).toEqual([{ name: 'a', command: ['true'] }]);
    expect(fieldsOf(b, 'b')).toEqual({ 'f:spec': { 'f:selector': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:command': {}, 'f:name': {} } } } } } });
    expect(fieldsOf(b, 'a')).toEqual({ 'f:spec': { 'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:name': {} } } } } } });
  });

  it('an Update takes the fields it changes: the next apply without force conflicts with it', () => {
    const a = apply(undefined, deployment({ replicas: 3, paused: false }), 'kubectl', T1).object;
    const scaled = structuredClone(a);
    scaled.spec.replicas = 10;
    const managedFields = updateManagedFields({ old: a, updated: scaled, manager: 'kubectl-edit', apiVersion: 'apps/v1', meta, now: T2, resetFields: ['status'] });
    expect(managedFields).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } },
      { manager: 'kubectl-edit', operation: 'Update', apiVersion: 'apps/v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ]);
    const stored = { ...scaled, metadata: { ...scaled.metadata, managedFields } };
    const err = catchErr(() => apply(stored, deployment({ replicas: 3, paused: false }), 'kubectl', T3));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas');
    expect(err.status.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' }]);
    // Applying the value the updater set is no conflict: both own it.
    const shared = apply(stored, deployment({ replicas: 10, paused: false }), 'kubectl', T3).object;
    expect(fieldsOf(shared, 'kubectl')).toEqual({ 'f:spec': { 'f:paused': {}, 'f:replicas': {} } });
    expect(fieldsOf(shared, 'kubectl-edit')).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('a no-op apply keeps the object and the entry time', () => {
    const a = apply(undefined, deployment({ replicas: 3 }), 'a', T1).object;
    const again = apply(a, deployment({ replicas: 3 }), 'a', T2);
    expect(again.changed).toBe(false);
    expect(again.object).toEqual(a);
    again.object.spec.replicas = 4;
    expect(a.spec.replicas).toBe(3);
  });

  it('never owns status through the main resource, nor server-set metadata', () => {
    const a = apply(undefined, { ...deployment({ replicas: 1 }, { uid: 'x', resourceVersion: '9' }), status: { replicas: 7 } }, 'a', T1);
    expect(a.managedFields[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('gives an untracked live object to "before-first-apply"', () => {
    const live = deployment({ replicas: 2, paused: false });
    const err = catchErr(() => apply(live, deployment({ replicas: 4 }), 'a', T1));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
    const ok = apply(live, deployment({ replicas: 2 }), 'a', T1);
    expect(ok.managedFields.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['a', 'Apply', { 'f:spec': { 'f:replicas': {} } }],
      ['before-first-apply', 'Update', { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } }],
    ]);
  });

  it('rejects what kube rejects', () => {
    const bad = catchErr(() => apply(undefined, deployment(undefined, { managedFields: [] }), 'a', T1));
    expect([bad.code, bad.message]).toEqual([400, 'metadata.managedFields must be nil']);
    const version = catchErr(() => apply(undefined, { ...deployment(undefined), apiVersion: 'apps/v1beta1' }, 'a', T1));
    expect([version.code, version.message]).toEqual([400, 'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1']);
    const dup = catchErr(() => apply(undefined, deployment({ template: template([{ name: 'c', env: [{ name: 'FOO', value: '1' }, { name: 'FOO', value: '2' }] }]) }), 'a', T1));
    expect(dup).toBeInstanceOf(ApplyInvalidError);
    expect([dup.code, dup.message]).toEqual([500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="c"].env: duplicate entries for key [name="FOO"]']);
    const noKey = catchErr(() => apply(undefined, deployment({ template: template([{ image: 'x' }]) }), 'a', T1));
    expect(noKey.message).toBe('failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)');
  });
});
