import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { fixtures, handWritten, isRecord, kindOf, mutate, type Kind, type Obj } from './kinds.test-support.js';
import { BUILTIN_CREATE_BASE, updateManagedFields } from './update.js';

// A create whose request brings no managedFields takes a one-walk path (created.ts); a create that brings
// `managedFields: []` (the client asks for none) takes the general one (compare, field sets, encode) and must
// record the same. These tests hold the two to each other over every built-in kind.

const NOW = '2026-11-29T10:00:00Z';
const record = (k: Kind, obj: Obj, base: unknown, extra: Partial<Parameters<typeof updateManagedFields>[0]> = {}): ManagedFieldsEntry[] =>
  updateManagedFields({ old: undefined, updated: obj, manager: 'kubectl-create', apiVersion: k.apiVersion, meta: k.meta, now: NOW, resetFields: k.resetFields, createBase: base, ...extra });

/** What the general path records for the same create: the request brings `managedFields: []`. */
const general = (k: Kind, obj: Obj, base: unknown) =>
  record(k, { ...obj, metadata: { ...((obj.metadata as Obj | undefined) ?? {}), managedFields: [] } }, base);

const pod = kindOf('v1', 'Pod');

describe('the managedFields of a create, in one walk', () => {
  // kube's golden objects are in ../shared, beside the checkout (CI has it; a clone elsewhere skips this).
  it.skipIf(!fixtures.length)('are what the general path records, for every built-in kind in its golden form', () => {
    expect(fixtures.length).toBeGreaterThan(40);
    for (const { k, obj } of fixtures) {
      for (const base of [BUILTIN_CREATE_BASE, {}]) expect(record(k, obj, base), `${k.apiVersion} ${k.kind}`).toEqual(general(k, obj, base));
    }
  });

  it('are what the general path records, for hand-written objects with repeated keys, nulls, empties and wrong types', () => {
    for (const { k, obj } of handWritten) {
      for (const base of [BUILTIN_CREATE_BASE, {}, { metadata: {} }]) {
        const got = record(k, obj, base);
        expect(got, JSON.stringify(obj)).toEqual(general(k, obj, base));
      }
    }
    // The ConfigMap's, written out: the labels and data maps as members, binaryData ({}) a leaf.
    expect(record(handWritten[0]!.k, handWritten[0]!.obj, BUILTIN_CREATE_BASE)[0]!.fieldsV1).toEqual({
      'f:binaryData': {}, 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    });
  });

  it('are what the general path records, for objects changed at random', () => {
    const cases = [...handWritten, ...fixtures];
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.array(fc.nat({ max: 100_000 }), { maxLength: 6 }), fc.boolean(), ({ k, obj }, picks, builtin) => {
        const changed = mutate(obj, picks);
        const base = builtin ? BUILTIN_CREATE_BASE : {};
        // A create's object always has metadata by now (the server makes it one); the general path's request needs it.
        fc.pre(isRecord(changed.metadata));
        expect(record(k, changed, base)).toEqual(general(k, changed, base));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a manager, a subresource and an empty result as the general path does', () => {
    const k = kindOf('v1', 'ConfigMap');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { a: '1' } };
    expect(record(k, obj, BUILTIN_CREATE_BASE, { manager: '' })[0]!.manager).toBe('unknown');
    expect(record(k, obj, BUILTIN_CREATE_BASE, { subresource: 'x' })).toEqual(
      record(k, { ...obj, metadata: { ...obj.metadata, managedFields: [] } }, BUILTIN_CREATE_BASE, { subresource: 'x' }),
    );
    // Only never-owned fields: no entry at all.
    expect(record(k, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', uid: 'u' } }, BUILTIN_CREATE_BASE)).toEqual([]);
    // A map-list element without its key: the object cannot be typed, nothing is recorded.
    expect(record(pod, { metadata: { name: 'p' }, spec: { containers: [{ image: 'x' }] } }, BUILTIN_CREATE_BASE)).toEqual([]);
  });
});
