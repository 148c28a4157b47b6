import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { applyObject, prune, prunesNothing } from './apply.js';
import { isEmpty, isSubset, setOf, type FieldSet } from './field-set.js';
import { isRecord, kindOf, mutate, startingObjects, withoutManagedFields, type Kind, type Obj } from './kinds.test-support.js';
import { decodeManagedFields, managerIdentifier, type Managers } from './managers.js';
import { mergeObjects } from './merge.js';
import { filterReset } from './ownership.js';
import { fieldPE } from './path-element.js';
import { toResetSet } from './reset-fields.js';
import { resolveSchema } from './schema.js';
import { rawFieldSet } from './to-field-set.js';
import { BUILTIN_CREATE_BASE, updateManagedFields } from './update.js';
import { validateTyped } from './validate.js';
import { driveSync, Versions } from './versions.js';

// An apply whose applier sends again every field it owned skips the prune (prunesNothing): these tests hold that
// shortcut to the full prune, which must then answer the merged object unchanged.

const NOW = '2026-11-29T10:00:00Z';
const APPLIER = { manager: 'a', operation: 'Apply' as const };

/** The live object after "other" created it and applier "a" applied `first` over it, forced: real managedFields. */
function stored(k: Kind, created: Obj, first: Obj): Obj | undefined {
  const common = { apiVersion: k.apiVersion, meta: k.meta, now: NOW, resetFields: k.resetFields };
  const managedFields = updateManagedFields({ ...common, old: undefined, updated: created, manager: 'other', createBase: BUILTIN_CREATE_BASE });
  const live = { ...created, metadata: { ...(created.metadata as Obj), managedFields } };
  try {
    return applyObject({ ...common, live, applied: { ...first, apiVersion: k.apiVersion }, manager: APPLIER.manager, force: true }).object;
  } catch {
    return undefined; // a configuration apply refuses (a list item without its key): not a case for the prune
  }
}

/** What applySteps hands the prune when "a" applies `config` to `live`. */
function pruneInputs(k: Kind, live: Obj, config: Obj) {
  const s = resolveSchema(k.meta);
  const reset = toResetSet(k.resetFields);
  const v = new Versions(k.apiVersion, { schema: s, reset });
  const managers: Managers = decodeManagedFields((live.metadata as Obj).managedFields as ManagedFieldsEntry[]);
  const id = managerIdentifier({ ...APPLIER, apiVersion: k.apiVersion });
  const previous = managers.get(id);
  const applied: FieldSet = filterReset(rawFieldSet(s, config), reset);
  const withApplier: Managers = new Map(managers).set(id, { ...APPLIER, apiVersion: k.apiVersion, set: applied });
  const base = withoutManagedFields(live);
  return { v, withApplier, previous, applied, merged: mergeObjects(s, base, config) ?? {}, valid: validateTyped(config, s, false).length === 0 };
}

/** `a` with what `b` adds: keys only `b` has, and (where `bits` say) `b`'s scalar in place of `a`'s. Lists stay `a`'s. */
function widen(a: unknown, b: unknown, bits: number): unknown {
  if (!isRecord(a) || !isRecord(b)) return a;
  const out: Obj = { ...a };
  let bit = 0;
  for (const [key, value] of Object.entries(b)) {
    const mine = a[key];
    if (!(key in a)) out[key] = value;
    else if (isRecord(mine)) out[key] = widen(mine, value, bits >>> 1);
    else if (!Array.isArray(mine) && mine !== null && typeof mine !== 'object' && (bits >>> bit++ % 30) & 1) out[key] = typeof value === 'object' ? mine : value;
  }
  return out;
}

describe('the prune skipped when the applier sends again all it owned', () => {
  const cases = startingObjects();

  it('gives what the full prune gives: the merged object, for objects changed at random', () => {
    let pruned = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 4 }),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 4 }),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 4 }),
        fc.array(fc.nat({ max: 100_000 }), { maxLength: 2 }),
        fc.nat(),
        ({ k, obj }, createdPicks, firstPicks, morePicks, dropPicks, bits) => {
          const created = mutate(obj, createdPicks);
          const first = mutate(obj, firstPicks);
          fc.pre(isRecord(created.metadata) && isRecord(first.metadata));
          const live = stored(k, created, first);
          fc.pre(live !== undefined);
          // The second configuration adds to the first (and changes scalars), or (dropPicks) also drops or empties some
          // of it, which the shortcut must notice.
          const second = widen(mutate(first, dropPicks), mutate(obj, morePicks), bits) as Obj;
          const { v, withApplier, previous, applied, merged, valid } = pruneInputs(k, live!, second);
          fc.pre(valid && prunesNothing(v, withApplier, previous, applied));
          if (previous && !isEmpty(previous.set)) pruned++;
          expect(driveSync(prune(v, merged, withApplier, previous))).toEqual(merged);
        },
      ),
      { numRuns: 300 },
    );
    // Most runs had something the full prune would have walked.
    expect(pruned).toBeGreaterThan(150);
  });

  it('is not taken when the applier drops a field it owned, which the prune then removes', () => {
    const k = kindOf('v1', 'ConfigMap');
    const first = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } };
    const live = stored(k, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { z: '0' } }, first)!;
    const second = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    const { v, withApplier, previous, applied, merged } = pruneInputs(k, live, second);
    expect(prunesNothing(v, withApplier, previous, applied)).toBe(false);
    expect(driveSync(prune(v, merged, withApplier, previous))).toEqual({ ...merged, data: { a: '1', z: '0' } });
    // And through the whole apply: b goes, z (the creator's) stays.
    const common = { apiVersion: 'v1', meta: k.meta, now: NOW, resetFields: k.resetFields, manager: 'a', force: false };
    expect(applyObject({ ...common, live, applied: second }).object.data).toEqual({ a: '1', z: '0' });
    expect(applyObject({ ...common, live, applied: { ...second, data: { a: '2', b: '2', c: '3' } } }).object.data).toEqual({ a: '2', b: '2', c: '3', z: '0' });
  });
});

describe('isSubset', () => {
  const f = fieldPE;
  it('compares members at every depth, children alone not being members', () => {
    const ab = setOf([f('a')], [f('b'), f('c')]);
    expect(isSubset(setOf([f('a')]), ab)).toBe(true);
    expect(isSubset(setOf([f('b'), f('c')]), ab)).toBe(true);
    expect(isSubset(setOf([f('b')]), ab)).toBe(false);
    expect(isSubset(setOf([f('b'), f('d')]), ab)).toBe(false);
    expect(isSubset(setOf([f('0')]), ab)).toBe(false);
    expect(isSubset(setOf([f('z')]), ab)).toBe(false);
    expect(isSubset(ab, ab)).toBe(true);
    expect(isSubset(setOf(), setOf())).toBe(true);
    expect(isSubset(ab, setOf([f('a')]))).toBe(false);
  });
});
