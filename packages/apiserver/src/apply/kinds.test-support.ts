// Test support, shared by the apply tests: every built-in kind's apply schema, kube's golden objects of them (when the
// reference data is beside the checkout), and random changes to objects.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FieldPatchMeta, FieldTree } from '@kapi/apimachinery';
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

export type Obj = Record<string, unknown>;
export interface Kind {
  apiVersion: string;
  kind: string;
  meta: { patchMeta: Readonly<Record<string, FieldPatchMeta>>; fieldTree: FieldTree; rootType: string };
  resetFields: string[];
}

const groups = [admissionregistration, apiextensions, apps, autoscaling, batch, certificates, coordination, core, discovery, events, flowcontrol, networking, node, policy, rbac, scheduling, storage];
export const kinds: Kind[] = groups.flatMap((g) =>
  g.resources.map((r) => {
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    return { apiVersion, kind: r.kind, meta: { patchMeta: r.patchMeta, fieldTree: g.fieldTree, rootType: `${apiVersion}/${r.kind}` }, resetFields: r.subresources.status ? ['status'] : [] };
  }),
);
export const kindOf = (apiVersion: string, kind: string) => kinds.find((k) => k.apiVersion === apiVersion && k.kind === kind)!;

export const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const withoutManagedFields = (obj: Obj): Obj => {
  const { managedFields: _drop, ...metadata } = (obj.metadata as Obj | undefined) ?? {};
  return { ...obj, metadata };
};

// kube's golden objects (every field set), when the reference data is beside the checkout.
const FIXTURES = fileURLToPath(new URL('../../../../../shared/reference/kubernetes/fixtures/', import.meta.url));
export const fixtures = existsSync(FIXTURES)
  ? kinds.flatMap((k) => {
      const file = `${FIXTURES}${k.apiVersion.includes('/') ? k.apiVersion.replace('/', '.') : `core.${k.apiVersion}`}.${k.kind}.json`;
      return existsSync(file) ? [{ k, obj: withoutManagedFields(JSON.parse(readFileSync(file, 'utf8')) as Obj) }] : [];
    })
  : [];

const pod = kindOf('v1', 'Pod');
/** Hand-written objects with repeated keys, nulls, empties and wrong types. */
export const handWritten: { k: Kind; obj: Obj }[] = [
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

/** The objects random changes start from: the hand-written ones that have metadata, and the golden ones. */
export const startingObjects = (): { k: Kind; obj: Obj }[] => [...handWritten.filter(({ obj }) => isRecord(obj.metadata)), ...fixtures];

/**
 * `obj` changed at the places `picks` choose: a key deleted, a value made null, an empty object or list, a list's
 * first element repeated, or a scalar; the kinds of input the two paths must treat alike.
 */
export function mutate(obj: Obj, picks: number[]): Obj {
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
