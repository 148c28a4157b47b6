import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldPatchMeta, FieldTree, ManagedFieldsEntry } from '@kapi/apimachinery';
import { group as admissionregistration } from '@kapi/api-admissionregistration';
import { group as apiextensions } from '@kapi/api-apiextensions';
import { group as apps } from '@kapi/api-apps';
import { group as autoscaling } from '@kapi/api-autoscaling';
import { group as batch } from '@kapi/api-batch';
import { group as certificates } from '@kapi/api-certificates';
import { group as coordination } from '@kapi/api-coordination';
import { group as core } from '@kapi/api-core';
import { group as discovery } from '@kapi/api-discovery';
import { group as events } from '@kapi/api-events';
import { group as flowcontrol } from '@kapi/api-flowcontrol';
import { group as networking } from '@kapi/api-networking';
import { group as node } from '@kapi/api-node';
import { group as policy } from '@kapi/api-policy';
import { group as rbac } from '@kapi/api-rbac';
import { group as scheduling } from '@kapi/api-scheduling';
import { group as storage } from '@kapi/api-storage';
import { BUILTIN_CREATE_BASE, updateManagedFields } from './update.js';

// A create whose request brings no managedFields takes a one-walk path (created.ts); a create that brings
// `managedFields: []` (the client asks for none) takes the general one (compare, field sets, encode) and must
// record the same. These tests hold the two to each other over every built-in kind.

type Obj = Record<string, unknown>;
interface Kind {
  apiVersion: string;
  kind: string;
  meta: { patchMeta: Readonly<Record<string, FieldPatchMeta>>; fieldTree: FieldTree; rootType: string };
  resetFields: string[];
}

const groups = [admissionregistration, apiextensions, apps, autoscaling, batch, certificates, coordination, core, discovery, events, flowcontrol, networking, node, policy, rbac, scheduling, storage];
const kinds: Kind[] = groups.flatMap((g) =>
  g.resources.map((r) => {
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    return { apiVersion, kind: r.kind, meta: { patchMeta: r.patchMeta, fieldTree: g.fieldTree, rootType: `${apiVersion}/${r.kind}` }, resetFields: r.subresources.status ? ['status'] : [] };
  }),
);
const kindOf = (apiVersion: string, kind: string) => kinds.find((k) => k.apiVersion === apiVersion && k.kind === kind)!;

const NOW = '2026-11-29T10:00:00Z';
const record = (k: Kind, obj: Obj, base: unknown, extra: Partial<Parameters<typeof updateManagedFields>[0]> = {}): ManagedFieldsEntry[] =>
  updateManagedFields({ old: undefined, updated: obj, manager: 'kubectl-create', apiVersion: k.apiVersion, meta: k.meta, now: NOW, resetFields: k.resetFields, createBase: base, ...extra });

/** What the general path records for the same create: the request brings `managedFields: []`. */
const general = (k: Kind, obj: Obj, base: unknown) =>
  record(k, { ...obj, metadata: { ...((obj.metadata as Obj | undefined) ?? {}), managedFields: [] } }, base);

const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const withoutManagedFields = (obj: Obj): Obj => {
  const { managedFields: _drop, ...metadata } = (obj.metadata as Obj | undefined) ?? {};
  return { ...obj, metadata };
};

// kube's golden objects (every field set), when the reference data is beside the checkout.
const FIXTURES = fileURLToPath(new URL('../../../../../shared/reference/kubernetes/fixtures/', import.meta.url));
const fixtures = existsSync(FIXTURES)
  ? kinds.flatMap((k) => {
      const file = `${FIXTURES}${k.apiVersion.includes('/') ? k.apiVersion.replace('/', '.') : `core.${k.apiVersion}`}.${k.kind}.json`;
      return existsSync(file) ? [{ k, obj: withoutManagedFields(JSON.parse(readFileSync(file, 'utf8')) as Obj) }] : [];
    })
  : [];

const pod = kindOf('v1', 'Pod');
const handWritten: { k: Kind; obj: Obj }[] = [
  { k: kindOf('v1', 'ConfigMap'), obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'd', labels: { app: 'x' } }, data: { a: '1', b: '' }, binaryData: {} } },
  {
    k: pod,
    obj: {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['a', 'b', 'a'], ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: 'u' }] },
      spec: {
        containers: [
          { name: 'c', image: 'i', ports: [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }, { containerPort: 81, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], resources: {}, args: [], command: ['a', 'a'] },
          { name: 'd', image: null, securityContext: { capabilities: { add: ['X', 'X'] } } },
        ],
        nodeSelector: {}, tolerations: [], affinity: null, unknownField: { deep: [1, 2] },
      },
      status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'True' }] },
    },
  },
  { k: pod, obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: 'not an object', status: null } },
  { k: pod, obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: null } },
  { k: pod, obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: [] } },
  { k: pod, obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } },
  { k: pod, obj: { apiVersion: 'v1', kind: 'Pod', metadata: {} } },
  { k: pod, obj: { metadata: { name: 'p', labels: null, annotations: { a: null } }, spec: { containers: null } } },
  { k: kindOf('apps/v1', 'Deployment'), obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { app: 'd' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'n', image: 'nginx' }] } }, strategy: {} }, status: {} } },
];

/**
 * `obj` changed at the places `picks` choose: a key deleted, a value made null, an empty object or list, a list's
 * first element repeated, or a scalar; the kinds of input the two paths must treat alike.
 */
function mutate(obj: Obj, picks: number[]): Obj {
  const out = structuredClone(obj);
  for (const pick of picks) {
    const nodes: (Obj | unknown[])[] = [];
    const collect = (v: unknown) => {
      if (v === null || typeof v !== 'object') return;
      nodes.push(v as Obj);
      for (const child of Object.values(v)) collect(child);
    };
    collect(out);
    const target = nodes[pick % nodes.length]!;
    const op = Math.floor(pick / nodes.length) % 5;
    if (Array.isArray(target)) {
      if (target.length && op < 3) target.push(structuredClone(target[0]));
      else target.length = 0;
      continue;
    }
    const keys = Object.keys(target);
    if (!keys.length) continue;
    const key = keys[Math.floor(pick / 7) % keys.length]!;
    if (op === 0) delete target[key];
    else if (op === 1) target[key] = null;
    else if (op === 2) target[key] = Array.isArray(target[key]) ? [] : {};
    else if (op === 3) target[key] = 'x';
    else target[key] = { [key]: target[key] };
  }
  return out;
}

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
