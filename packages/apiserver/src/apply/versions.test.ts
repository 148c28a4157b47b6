import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyAcrossVersions, applyObject, type ApplyInput } from './apply.js';
import { ApplyConflictError } from './conflicts.js';
import { paths } from './field-set.js';
import { fromFieldsV1 } from './fields-v1.js';
import { decodeManagedFields } from './managers.js';
import { reassignSteps } from './ownership.js';
import { pathString } from './path-element.js';
import { resolveSchema } from './schema.js';
import { updateAcrossVersions, updateManagedFields, type UpdateManagedFieldsInput } from './update.js';
import { drive, MissingVersionError, Versions, type VersionConverter } from './versions.js';

// One kind in two versions: v1's `spec.old` is v2's `spec.new`; everything else is the same.
type Obj = Record<string, any>;
const V1 = 'example.com/v1';
const V2 = 'example.com/v2';
const T1 = '2026-01-01T10:00:00Z';
const T2 = '2026-01-01T10:05:00Z';
const meta = {};

function convertOne(obj: Obj, to: string): Obj {
  const spec = { ...(obj.spec ?? {}) };
  if (to === V2 && 'old' in spec) {
    spec.new = spec.old;
    delete spec.old;
  }
  if (to === V1 && 'new' in spec) {
    spec.old = spec.new;
    delete spec.new;
  }
  return { ...obj, apiVersion: to, ...(obj.spec ? { spec } : {}) };
}

/** A converter for both versions, counting its calls; `async` answers with promises. */
function converter(options: { async?: boolean; served?: string[] } = {}) {
  const served = options.served ?? [V1, V2];
  const calls: { from: string; to: string; count: number }[] = [];
  const c: VersionConverter = {
    version: (apiVersion) => (served.includes(apiVersion) ? { meta } : undefined),
    convert(objects, from, to) {
      calls.push({ from, to, count: objects.length });
      if (!served.includes(to)) {
        if (options.async) return Promise.reject(new MissingVersionError(to));
        throw new MissingVersionError(to);
      }
      const out = objects.map((o) => convertOne(o as Obj, to));
      return options.async ? Promise.resolve(out) : out;
    },
  };
  return { converter: c, calls };
}

const thing = (apiVersion: string, spec: Obj, managedFields?: ManagedFieldsEntry[]): Obj => ({
  apiVersion, kind: 'Thing', metadata: { name: 'x', namespace: 'default', ...(managedFields ? { managedFields } : {}) }, spec,
});

/** The paths a manager owns, as kube prints them. */
const owned = (mf: readonly ManagedFieldsEntry[], manager: string, operation = 'Update') => {
  const e = mf.find((m) => m.manager === manager && m.operation === operation);
  return e ? paths(fromFieldsV1(e.fieldsV1!)).map(pathString).sort() : undefined;
};
const entryOf = (mf: readonly ManagedFieldsEntry[], manager: string) => mf.find((m) => m.manager === manager);

const update = (input: Partial<UpdateManagedFieldsInput> & { old: unknown; updated: unknown; manager: string; apiVersion: string }) =>
  ({ meta, now: T2, createBase: {}, ...input }) as UpdateManagedFieldsInput;
const applyInput = (input: Partial<ApplyInput> & { live: unknown; applied: unknown; manager: string; apiVersion: string }): ApplyInput =>
  ({ meta, now: T2, force: false, createBase: {}, ...input });

// `a` created the object in v1 with spec.old and spec.keep: its Update entry is in v1.
const createdInV1 = () => {
  const obj = thing(V1, { old: 'o', keep: 'k' });
  const mf = updateManagedFields({ old: undefined, updated: obj, manager: 'a', apiVersion: V1, meta, now: T1, createBase: {} });
  return thing(V1, obj.spec, mf);
};

describe('managers of another version', () => {
  it('an Update in v2 that removes spec.new removes spec.old from a v1 manager (not compared in v2 paths)', () => {
    const live = convertOne(createdInV1(), V2);
    expect(live.spec).toEqual({ new: 'o', keep: 'k' });
    const updated = thing(V2, { keep: 'k' });
    const { converter: c } = converter();
    const mf = updateAcrossVersions(update({ old: live, updated, manager: 'b', apiVersion: V2 }), c) as ManagedFieldsEntry[];
    expect(owned(mf, 'a')).toEqual(['.spec', '.spec.keep']);
    expect(entryOf(mf, 'a')!.apiVersion).toBe(V1);
    // Without versions, the v1 set is compared in v2's paths: `.spec.old` is never seen removed.
    const single = updateManagedFields(update({ old: live, updated, manager: 'b', apiVersion: V2 }));
    expect(owned(single, 'a')).toEqual(['.spec', '.spec.keep', '.spec.old']);
  });

  it('an Update in v2 that changes spec.new takes spec.old from the v1 manager; the writer owns spec.new in v2', () => {
    const live = convertOne(createdInV1(), V2);
    const { converter: c } = converter();
    const mf = updateAcrossVersions(update({ old: live, updated: thing(V2, { new: 'changed', keep: 'k' }), manager: 'b', apiVersion: V2 }), c) as ManagedFieldsEntry[];
    expect(owned(mf, 'a')).toEqual(['.spec', '.spec.keep']);
    expect(owned(mf, 'b')).toEqual(['.spec.new']);
    expect(entryOf(mf, 'b')!.apiVersion).toBe(V2);
  });

  it('an updater keeps one Update entry per version (kube identifies updaters with their apiVersion)', () => {
    const live = convertOne(createdInV1(), V2);
    const { converter: c } = converter();
    const mf = updateAcrossVersions(update({ old: live, updated: thing(V2, { new: 'o', keep: 'k', more: 'm' }), manager: 'a', apiVersion: V2 }), c) as ManagedFieldsEntry[];
    expect(mf.filter((e) => e.manager === 'a').map((e) => e.apiVersion).sort()).toEqual([V1, V2]);
  });

  it('converts the old and new objects once per version, whatever the number of managers in it', () => {
    const live = createdInV1();
    // A second v1 manager.
    const withTwo = thing(V1, { ...live.spec, other: 'x' });
    const mf2 = updateManagedFields({ old: live, updated: withTwo, manager: 'c', apiVersion: V1, meta, now: T1 });
    const inV2 = convertOne(thing(V1, withTwo.spec, mf2), V2);
    const { converter: c, calls } = converter();
    updateAcrossVersions(update({ old: inV2, updated: thing(V2, { keep: 'k', other: 'y' }), manager: 'b', apiVersion: V2 }), c);
    expect(calls).toEqual([{ from: V2, to: V1, count: 2 }]);
  });

  it('drops managers of a version no longer served', () => {
    const live = convertOne(createdInV1(), V2);
    const { converter: c } = converter({ served: [V2] });
    const mf = updateAcrossVersions(update({ old: live, updated: thing(V2, { new: 'o', keep: 'k', more: 'm' }), manager: 'b', apiVersion: V2 }), c) as ManagedFieldsEntry[];
    expect(mf.map((e) => e.manager)).toEqual(['b']);
  });

  it('answers with a promise when a conversion does, and drops managers whose version the conversion does not know', async () => {
    const live = convertOne(createdInV1(), V2);
    const { converter: c } = converter({ async: true });
    const pending = updateAcrossVersions(update({ old: live, updated: thing(V2, { keep: 'k' }), manager: 'b', apiVersion: V2 }), c);
    expect(pending).toBeInstanceOf(Promise);
    expect(owned(await pending, 'a')).toEqual(['.spec', '.spec.keep']);
    // The version is described, but its conversion says it does not know it.
    const unknown: VersionConverter = { version: () => ({ meta }), convert: () => Promise.reject(new MissingVersionError(V1)) };
    const mf = await updateAcrossVersions(update({ old: live, updated: thing(V2, { keep: 'k' }), manager: 'b', apiVersion: V2 }), unknown);
    expect(mf.map((e) => e.manager)).toEqual([]);
  });

  it('keeps the old managedFields when a conversion fails otherwise (kube\'s UpdateNoErrors)', async () => {
    const live = convertOne(createdInV1(), V2);
    const failing: VersionConverter = { version: () => ({ meta }), convert: () => Promise.reject(new Error('webhook down')) };
    const mf = await updateAcrossVersions(update({ old: live, updated: thing(V2, { keep: 'k' }), manager: 'b', apiVersion: V2 }), failing);
    expect(mf).toEqual(live.metadata.managedFields);
  });
});

describe('reassign across versions', () => {
  it('reports conflicts with a manager of another version in its own paths and apiVersion', () => {
    const managers = decodeManagedFields(createdInV1().metadata.managedFields);
    const live = convertOne(createdInV1(), V2);
    const { converter: c } = converter();
    const v = new Versions(V2, { schema: resolveSchema(meta), reset: fromFieldsV1({}) }, c);
    const result = drive(reassignSteps(v, managers, live, thing(V2, { new: 'n', keep: 'k' }), 'actor', false), c) as any;
    expect(result.conflicts).toEqual([{ manager: 'a', operation: 'Update', apiVersion: V1, field: '.spec.old' }]);
    const forced = drive(reassignSteps(v, managers, live, thing(V2, { new: 'n', keep: 'k' }), 'actor', true), c) as any;
    expect(paths([...forced.managers.values()][0].set).map(pathString).sort()).toEqual(['.spec', '.spec.keep']);
  });
});

describe('apply across versions', () => {
  const appliedInV1 = () => {
    const r = applyObject(applyInput({ live: undefined, applied: thing(V1, { old: 'o', keep: 'k' }), manager: 'a', apiVersion: V1, now: T1 }));
    return r.object as Obj;
  };

  it('conflicts with an applier of another version on its field in its version; force takes it', async () => {
    const live = convertOne(appliedInV1(), V2);
    const { converter: c } = converter({ async: true });
    const attempt = applyAcrossVersions(applyInput({ live, applied: thing(V2, { new: 'mine' }), manager: 'b', apiVersion: V2 }), c);
    const err = await Promise.resolve(attempt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect((err as ApplyConflictError).message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.old');
    expect((err as ApplyConflictError).conflicts).toEqual([{ manager: 'a', operation: 'Apply', apiVersion: V1, field: '.spec.old' }]);

    const forced = await applyAcrossVersions(applyInput({ live, applied: thing(V2, { new: 'mine' }), manager: 'b', apiVersion: V2, force: true }), c);
    expect((forced.object as Obj).spec).toEqual({ new: 'mine', keep: 'k' });
    expect(owned(forced.managedFields, 'a', 'Apply')).toEqual(['.spec.keep']);
    expect(entryOf(forced.managedFields, 'a')!.apiVersion).toBe(V1);
    expect(owned(forced.managedFields, 'b', 'Apply')).toEqual(['.spec.new']);
    expect(entryOf(forced.managedFields, 'b')!.apiVersion).toBe(V2);
  });

  it('the same value applied from another version is no conflict: both own it, each in its own version', () => {
    const live = convertOne(appliedInV1(), V2);
    const { converter: c } = converter();
    const r = applyAcrossVersions(applyInput({ live, applied: thing(V2, { new: 'o' }), manager: 'b', apiVersion: V2 }), c) as any;
    expect(owned(r.managedFields, 'a', 'Apply')).toEqual(['.spec.keep', '.spec.old']);
    expect(owned(r.managedFields, 'b', 'Apply')).toEqual(['.spec.new']);
  });

  it('an applier switching versions keeps one entry, now in the new version, and prunes what it no longer applies', () => {
    const live = convertOne(appliedInV1(), V2);
    const { converter: c } = converter();
    const r = applyAcrossVersions(applyInput({ live, applied: thing(V2, { new: 'o' }), manager: 'a', apiVersion: V2 }), c) as any;
    expect(r.managedFields).toHaveLength(1);
    expect(r.managedFields[0]).toMatchObject({ manager: 'a', operation: 'Apply', apiVersion: V2 });
    expect(owned(r.managedFields, 'a', 'Apply')).toEqual(['.spec.new']);
    // spec.keep was the applier's (in v1) and is not applied any more: pruned. spec.old, renamed spec.new, stays.
    expect(r.object.spec).toEqual({ new: 'o' });
  });

  it('an applier switching versions leaves what another manager owns', () => {
    const first = appliedInV1();
    // `c` also applied spec.keep, in v2.
    const { converter: c } = converter();
    const shared = applyAcrossVersions(applyInput({ live: convertOne(first, V2), applied: thing(V2, { keep: 'k' }), manager: 'c', apiVersion: V2 }), c) as any;
    const r = applyAcrossVersions(applyInput({ live: shared.object, applied: thing(V2, { new: 'o' }), manager: 'a', apiVersion: V2 }), c) as any;
    expect(r.object.spec).toEqual({ new: 'o', keep: 'k' });
    expect(owned(r.managedFields, 'c', 'Apply')).toEqual(['.spec.keep']);
  });

  it('an apply with no converter is today\'s: every manager compared in the request\'s version', () => {
    const live = convertOne(appliedInV1(), V2);
    // In v2 paths, `.spec.old` is not there: no conflict is seen, though the value changed.
    const r = applyObject(applyInput({ live, applied: thing(V2, { new: 'mine' }), manager: 'b', apiVersion: V2 }));
    expect((r.object as Obj).spec.new).toBe('mine');
  });
});
