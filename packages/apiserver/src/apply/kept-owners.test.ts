import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { applyObject } from './apply.js';
import { capUpdateManagers } from './cap-managers.js';
import { compareObjects } from './compare.js';
import { keptOwnership } from './kept-owners.js';
import { isRecord, kindOf, mutate, startingObjects, type Kind, type Obj } from './kinds.test-support.js';
import { decodeManagedFields, encodeManagedFields } from './managers.js';
import { toResetSet } from './reset-fields.js';
import { resolveSchema } from './schema.js';
import { BUILTIN_CREATE_BASE, trackUpdate, updateManagedFields } from './update.js';
import { validateTyped } from './validate.js';

// An update that moves no ownership keeps the stored entries and changes the writer's time (kept-owners.ts); these
// tests hold it to the general path (decode, compare and reassign, encode) on the same updates.

const T1 = '2026-11-29T10:00:00Z';
const T2 = '2026-11-29T11:00:00Z';
const T3 = '2026-11-29T12:00:00Z';

const withEntries = (obj: Obj, managedFields: ManagedFieldsEntry[]): Obj => ({ ...obj, metadata: { ...(obj.metadata as Obj), managedFields } });

/** `obj` stored after `manager` wrote it over `old` (undefined: created), with the managedFields the server records. */
function written(k: Kind, old: Obj | undefined, obj: Obj, manager: string, now: string, subresource?: string): Obj {
  const resetFields = subresource === 'status' ? ['spec'] : k.resetFields;
  const managedFields = updateManagedFields({ old, updated: obj, manager, apiVersion: k.apiVersion, meta: k.meta, now, resetFields, createBase: BUILTIN_CREATE_BASE, subresource });
  return withEntries(obj, managedFields);
}

/** What the general path records for an update starting from the old object's entries. */
function general(k: Kind, old: Obj, updated: Obj, manager: string, now: string, subresource?: string): ManagedFieldsEntry[] {
  const schema = resolveSchema(k.meta);
  const entries = (old.metadata as Obj).managedFields as ManagedFieldsEntry[];
  const strip = (o: Obj) => JSON.parse(JSON.stringify({ ...o, metadata: { ...(o.metadata as Obj), managedFields: undefined } })) as Obj;
  // Objects that cannot be typed (a map-list element without its key) keep the old entries.
  if (validateTyped(strip(old), schema, true).length || validateTyped(strip(updated), schema, true).length) return [...entries];
  const managers = trackUpdate({
    schema, managers: decodeManagedFields(entries), old: strip(old), updated: strip(updated), manager, apiVersion: k.apiVersion,
    subresource, now, reset: toResetSet(subresource === 'status' ? ['spec'] : k.resetFields),
  });
  return encodeManagedFields(capUpdateManagers(managers));
}

/** `obj` with one string leaf (chosen by `pick`) changed: the kind of write that often moves no ownership. */
function touch(obj: Obj, pick: number): Obj {
  const out = structuredClone(obj);
  const leaves: [Obj | unknown[], string | number][] = [];
  const collect = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    for (const [key, child] of Object.entries(v)) {
      if (typeof child === 'string') leaves.push([v as Obj, Array.isArray(v) ? Number(key) : key]);
      else collect(child);
    }
  };
  collect(out.spec ?? out.data ?? out);
  if (leaves.length) {
    const [parent, key] = leaves[pick % leaves.length]!;
    (parent as Record<string | number, unknown>)[key] = `changed-${pick}`;
  }
  return out;
}

describe('an update that moves no ownership', () => {
  const cases = startingObjects();

  it('records what the general path records, for updates at random by the creator, another manager or a third', () => {
    let kept = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 3 }),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 3 }),
        fc.nat(),
        fc.constantFrom('creator', 'other', 'third', ''),
        fc.boolean(),
        ({ k, obj }, otherPicks, lastPicks, touchPick, writer, sameEntriesSent) => {
          const created = written(k, undefined, obj, 'creator', T1);
          const other = written(k, created, mutate(created, otherPicks), 'other', T2);
          fc.pre(isRecord(other.metadata));
          const next = touch(lastPicks.length % 2 ? mutate(other, lastPicks) : other, touchPick);
          fc.pre(isRecord(next.metadata));
          const stored = (other.metadata as Obj).managedFields as ManagedFieldsEntry[];
          // A client that read the object sends its managedFields back as it got them (kubectl replace); others send none.
          const updated = withEntries(next, sameEntriesSent ? stored : (undefined as never));
          const input = { old: other, updated, manager: writer, apiVersion: k.apiVersion, meta: k.meta, now: T3, resetFields: k.resetFields };
          const expected = general(k, other, next, writer, T3);
          expect(updateManagedFields(input)).toEqual(expected);
          const strip = (o: Obj) => ({ ...o, metadata: { ...(o.metadata as Obj), managedFields: undefined } });
          if (keptOwnership(stored, compareObjects(resolveSchema(k.meta), strip(other), strip(next)), toResetSet(k.resetFields), { manager: writer, apiVersion: k.apiVersion }, T3)) kept++;
        },
      ),
      { numRuns: 400 },
    );
    // The shortcut was taken in a good share of the runs, not only declined.
    expect(kept).toBeGreaterThan(60);
  });

  const cm = kindOf('v1', 'ConfigMap');
  const configMap = (data: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, data });
  const update = (old: Obj, next: Obj, manager: string, extra: Partial<Parameters<typeof updateManagedFields>[0]> = {}) =>
    updateManagedFields({ old, updated: next, manager, apiVersion: 'v1', meta: cm.meta, now: T3, resetFields: cm.resetFields, ...extra });

  it("keeps the entries and moves the writer's entry to its new time", () => {
    const created = written(cm, undefined, configMap({ a: '1', b: '2' }), 'creator', T1);
    const other = written(cm, created, configMap({ a: '1', b: '2', c: '3' }), 'other', T2);
    const got = update(other, configMap({ a: 'changed', b: '2', c: '3' }), 'creator');
    expect(got.map((e) => [e.manager, e.time])).toEqual([['other', T2], ['creator', T3]]);
    expect(got[1]!.fieldsV1).toBe(((other.metadata as Obj).managedFields as ManagedFieldsEntry[])[0]!.fieldsV1);
    expect(got).toEqual(general(cm, other, configMap({ a: 'changed', b: '2', c: '3' }), 'creator', T3));
  });

  it('leaves to the general path a field another manager owns, a removal, a new writer and entries not as encoded', () => {
    const created = written(cm, undefined, configMap({ a: '1', b: '2' }), 'creator', T1);
    const other = written(cm, created, configMap({ a: '1', b: '2', c: '3' }), 'other', T2);
    const entries = (other.metadata as Obj).managedFields as ManagedFieldsEntry[];
    const s = resolveSchema(cm.meta);
    const strip = (o: Obj) => ({ ...o, metadata: { name: 'c', namespace: 'd' } });
    const kept = (next: Obj, manager: string, list = entries) => keptOwnership(list, compareObjects(s, strip(other), strip(next)), toResetSet([]), { manager, apiVersion: 'v1' }, T3);
    // c is other's: the creator takes it.
    expect(kept(configMap({ a: '1', b: '2', c: 'x' }), 'creator')).toBeUndefined();
    expect(update(other, configMap({ a: '1', b: '2', c: 'x' }), 'creator').find((e) => e.manager === 'other')).toBeUndefined();
    // b removed: it leaves every set. A field nobody owns (the uid) removed changes no set.
    expect(kept(configMap({ a: '1', c: '3' }), 'creator')).toBeUndefined();
    const withUid = { ...other, metadata: { ...(other.metadata as Obj), uid: 'u' } };
    const uidGone = keptOwnership(entries, compareObjects(s, { ...strip(other), metadata: { name: 'c', namespace: 'd', uid: 'u' } }, strip(configMap({ a: 'x', b: '2', c: '3' }))), toResetSet([]), { manager: 'creator', apiVersion: 'v1' }, T3);
    expect(uidGone?.map((e) => e.manager)).toEqual(['other', 'creator']);
    expect(update(withUid, configMap({ a: 'x', b: '2', c: '3' }), 'creator')).toEqual(uidGone);
    // A manager without an entry gets one.
    expect(kept(configMap({ a: 'x', b: '2', c: '3' }), 'third')).toBeUndefined();
    // Entries the encoder did not write: a repeated manager, keys in another order, an entry without fields.
    const [first, second] = entries as [ManagedFieldsEntry, ManagedFieldsEntry];
    const next = configMap({ a: 'x', b: '2', c: '3' });
    for (const odd of [[first, second, first], [{ fieldsV1: first.fieldsV1, ...first }, second], [{ ...first, fieldsV1: {} }, second], [first, { ...second, time: '' }]]) {
      expect(kept(next, 'creator', odd)).toBeUndefined();
      const old = withEntries(other, odd);
      expect(update(old, next, 'creator')).toEqual(general(cm, old, next, 'creator', T3));
    }
    // Shared ownership: an applier that applied the creator's value of a owns it too, and loses it to the creator's change.
    const applied = applyObject({ live: created, applied: configMap({ a: '1' }), manager: 'applier', apiVersion: 'v1', force: false, meta: cm.meta, now: T2, resetFields: [] }).object as Obj;
    const sharedEntries = (applied.metadata as Obj).managedFields as ManagedFieldsEntry[];
    expect(sharedEntries.map((e) => e.manager).sort()).toEqual(['applier', 'creator']);
    const change = configMap({ a: '2', b: '2' });
    expect(keptOwnership(sharedEntries, compareObjects(s, strip(applied), strip(change)), toResetSet([]), { manager: 'creator', apiVersion: 'v1' }, T3)).toBeUndefined();
    expect(update(applied, change, 'creator').map((e) => e.manager)).toEqual(['creator']);
    // No change at all: the entries as they were.
    expect(update(other, configMap({ a: '1', b: '2', c: '3' }), 'creator')).toEqual(entries);
  });

  it('works for a status write the same way', () => {
    const deploy = kindOf('apps/v1', 'Deployment');
    const obj: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 }, status: { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] } };
    const created = written(deploy, undefined, obj, 'creator', T1);
    const status = written(deploy, created, { ...obj, status: { replicas: 2, conditions: [{ type: 'Available', status: 'True' }] } }, 'controller', T2, 'status');
    const next = { ...obj, status: { replicas: 3, conditions: [{ type: 'Available', status: 'False' }] } };
    const got = updateManagedFields({ old: status, updated: next, manager: 'controller', apiVersion: 'apps/v1', meta: deploy.meta, now: T3, resetFields: ['spec'], subresource: 'status' });
    expect(got.find((e) => e.subresource === 'status')!.time).toBe(T3);
    expect(got).toEqual(general(deploy, status, next, 'controller', T3, 'status'));
  });
});
