import { describe, expect, it } from 'vitest';
import type { StorageBackend } from '../types.js';
import { bytes, expectStorageError, kv, text, view } from './helpers.js';

const A = '/registry/configmaps/ns/a';
const B = '/registry/configmaps/ns/b';
const C = '/registry/configmaps/ns/c';

export function describeCrud(backend: () => StorageBackend): void {
  describe('revisions', () => {
    it('starts empty and uncompacted', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      expect(await s.count('/registry/')).toBe(0);
      expect(await s.list({ prefix: '/registry/' })).toEqual({ kvs: [], revision: r0, more: false, remaining: 0 });
      expect(await s.compactedRevision()).toBe(1);
    });

    it('increase by exactly one per write, across keys; failed writes take none', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      expect((await s.create(A, bytes('1'))).modRevision).toBe(r0 + 1);
      expect((await s.create(B, bytes('1'))).modRevision).toBe(r0 + 2);
      await expectStorageError(s.create(A, bytes('x')), 'KeyExists');
      await expectStorageError(s.update(A, bytes('x'), r0 + 2), 'Conflict');
      expect((await s.update(A, bytes('2'), r0 + 1)).modRevision).toBe(r0 + 3);
      expect((await s.delete(B)).modRevision).toBe(r0 + 4);
      expect((await s.create(C, bytes('1'))).modRevision).toBe(r0 + 5);
      expect(await s.currentRevision()).toBe(r0 + 5);
    });

    it('tells its revision synchronously, when the backend offers it, as currentRevision does', async () => {
      const s = backend();
      if (!s.revisionNow) return;
      expect(s.localRevision).toBe(true);
      expect(s.revisionNow()).toBe(await s.currentRevision());
      const created = await s.create(A, bytes('1'));
      expect(s.revisionNow()).toBe(created.modRevision);
      await expectStorageError(s.update(A, bytes('x'), created.modRevision + 1), 'Conflict');
      const deleted = await s.delete(A);
      expect(s.revisionNow()).toBe(deleted.modRevision);
      expect(s.revisionNow()).toBe(await s.currentRevision());
    });

    it('reports the database size, when the backend offers it, in whole bytes', async () => {
      const s = backend();
      if (!s.sizeBytes) return;
      await s.create(A, bytes('x'.repeat(10_000)));
      const size = await s.sizeBytes();
      expect(Number.isInteger(size)).toBe(true);
      expect(size).toBeGreaterThanOrEqual(10_000);
    });
  });

  describe('create', () => {
    it('returns the new kv and refuses an existing key with KeyExists', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      expect(view(await s.create(A, bytes('v1')))).toEqual(kv(A, 'v1', r0 + 1, r0 + 1));
      const err = await expectStorageError(s.create(A, bytes('v2')), 'KeyExists');
      expect(err.key).toBe(A);
      expect(view((await s.get(A)).kv)).toEqual(kv(A, 'v1', r0 + 1, r0 + 1));
    });

    it('stores bytes exactly and keeps them apart from the caller buffer', async () => {
      const s = backend();
      const value = new Uint8Array([0, 1, 127, 128, 255]);
      await s.create(A, value);
      value[0] = 9;
      expect([...(await s.get(A)).kv!.value]).toEqual([0, 1, 127, 128, 255]);
    });

    it('rejects an empty key with InvalidObject', async () => {
      await expectStorageError(backend().create('', bytes('x')), 'InvalidObject');
    });
  });

  describe('get', () => {
    it('reads the current value, and the value at a past revision', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('v1'));
      await s.update(A, bytes('v2'), r0 + 1);
      await s.create(B, bytes('b'));
      expect((await s.get(A)).revision).toBe(r0 + 3);
      expect(view((await s.get(A)).kv)).toEqual(kv(A, 'v2', r0 + 1, r0 + 2));
      expect(view((await s.get(A, { revision: r0 + 1 })).kv)).toEqual(kv(A, 'v1', r0 + 1, r0 + 1));
      const past = await s.get(A, { revision: r0 + 2 });
      expect({ kv: view(past.kv), revision: past.revision }).toEqual({ kv: kv(A, 'v2', r0 + 1, r0 + 2), revision: r0 + 2 });
      expect(await s.get(B, { revision: r0 + 2 })).toEqual({ revision: r0 + 2 });
    });

    it('reports a missing key with no kv, at the current revision', async () => {
      const s = backend();
      await s.create(A, bytes('v1'));
      const r = await s.currentRevision();
      expect(await s.get(B)).toEqual({ revision: r });
    });
  });

  describe('update', () => {
    it('replaces the value when the mod revision matches', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('v1'));
      expect(view(await s.update(A, bytes('v2'), r0 + 1))).toEqual(kv(A, 'v2', r0 + 1, r0 + 2));
      expect(view(await s.update(A, bytes('v3'), r0 + 2))).toEqual(kv(A, 'v3', r0 + 1, r0 + 3));
    });

    it('fails with Conflict on a stale mod revision, leaving the value', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('v1'));
      await s.update(A, bytes('v2'), r0 + 1);
      const err = await expectStorageError(s.update(A, bytes('v3'), r0 + 1), 'Conflict');
      expect(err.key).toBe(A);
      expect(view((await s.get(A)).kv)).toEqual(kv(A, 'v2', r0 + 1, r0 + 2));
    });

    it('fails with KeyNotFound for a missing or deleted key', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      expect((await expectStorageError(s.update(A, bytes('v'), 1), 'KeyNotFound')).key).toBe(A);
      await s.create(A, bytes('v1'));
      await s.delete(A);
      await expectStorageError(s.update(A, bytes('v2'), r0 + 1), 'KeyNotFound');
    });
  });

  describe('delete', () => {
    it('returns the deleted value with the delete revision', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('v1'));
      await s.update(A, bytes('v2'), r0 + 1);
      expect(view(await s.delete(A))).toEqual(kv(A, 'v2', r0 + 1, r0 + 3));
      expect(await s.get(A)).toEqual({ revision: r0 + 3 });
      expect(await s.count('/registry/')).toBe(0);
    });

    it('deletes only while the expected mod revision matches', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('v1'));
      await s.update(A, bytes('v2'), r0 + 1);
      expect((await expectStorageError(s.delete(A, r0 + 1), 'Conflict')).key).toBe(A);
      expect(view((await s.get(A)).kv)).toEqual(kv(A, 'v2', r0 + 1, r0 + 2));
      expect(view(await s.delete(A, r0 + 2))).toEqual(kv(A, 'v2', r0 + 1, r0 + 3));
    });

    it('fails with KeyNotFound for a missing or already deleted key', async () => {
      const s = backend();
      expect((await expectStorageError(s.delete(A), 'KeyNotFound')).key).toBe(A);
      await s.create(A, bytes('v1'));
      await s.delete(A);
      await expectStorageError(s.delete(A), 'KeyNotFound');
      await expectStorageError(s.delete(A, 1), 'KeyNotFound');
    });

    it('lets a deleted key be created again with a new create revision', async () => {
      const s = backend();
      const r0 = await s.currentRevision();
      await s.create(A, bytes('old'));
      await s.delete(A);
      expect(view(await s.create(A, bytes('new')))).toEqual(kv(A, 'new', r0 + 3, r0 + 3));
      expect(view((await s.get(A, { revision: r0 + 1 })).kv)).toEqual(kv(A, 'old', r0 + 1, r0 + 1));
      expect(await s.get(A, { revision: r0 + 2 })).toEqual({ revision: r0 + 2 });
      expect(text((await s.get(A)).kv!.value)).toBe('new');
    });
  });
}
