import { group } from '@kapi/api-apps';
import { describe, expect, it } from 'vitest';
import {
  difference, EMPTY_SET, has, intersection, isEmpty, leaves, paths, recursiveDifference, setEquals, setOf, union,
} from './field-set.js';
import { serializeFieldsV1 } from './fields-v1.js';
import { fieldPath, pathString } from './path-element.js';
import { fieldSetOf } from './to-field-set.js';

const p = fieldPath;
const strs = (s: Parameters<typeof paths>[0]) => paths(s).map(pathString);

describe('FieldSet operations', () => {
  const a = setOf(p('spec.replicas'), p('spec.template'), p('spec.template.spec.dnsPolicy'), p('metadata.labels.app'));
  const b = setOf(p('spec.replicas'), p('spec.paused'), p('spec.template.spec.dnsPolicy'));

  it('union, intersection, difference', () => {
    expect(strs(union(a, b))).toEqual(['.metadata.labels.app', '.spec.paused', '.spec.replicas', '.spec.template', '.spec.template.spec.dnsPolicy']);
    expect(strs(intersection(a, b))).toEqual(['.spec.replicas', '.spec.template.spec.dnsPolicy']);
    expect(strs(difference(a, b))).toEqual(['.metadata.labels.app', '.spec.template']);
  });

  it('difference removes members only; recursiveDifference also what is below them', () => {
    const parent = setOf(p('spec.template'));
    expect(strs(difference(a, parent))).toEqual(['.metadata.labels.app', '.spec.replicas', '.spec.template.spec.dnsPolicy']);
    expect(strs(recursiveDifference(a, parent))).toEqual(['.metadata.labels.app', '.spec.replicas']);
    expect(strs(recursiveDifference(a, setOf(p('spec'))))).toEqual(['.metadata.labels.app']);
  });

  it('isEmpty, has, leaves, equality; inputs untouched', () => {
    expect(isEmpty(EMPTY_SET)).toBe(true);
    expect(isEmpty(difference(b, b))).toBe(true);
    expect(has(a, p('spec.template'))).toBe(true);
    expect(has(a, p('spec'))).toBe(false);
    expect(strs(leaves(a))).toEqual(['.metadata.labels.app', '.spec.replicas', '.spec.template.spec.dnsPolicy']);
    expect(setEquals(union(a, b), union(b, a))).toBe(true);
    expect(Object.isFrozen(a)).toBe(true);
    expect(strs(a)).toEqual(['.metadata.labels.app', '.spec.replicas', '.spec.template', '.spec.template.spec.dnsPolicy']);
  });
});

describe('fieldSetOf', () => {
  const info = group.resources.find((r) => r.kind === 'Deployment')!;
  const meta = { patchMeta: info.patchMeta, fieldTree: group.fieldTree, rootType: 'apps/v1/Deployment' };
  const obj = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '5', generation: 2, creationTimestamp: '2024-01-01T00:00:00Z',
      labels: { app: 'web' }, finalizers: ['a/b'], ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u1' }] },
    spec: {
      replicas: 2, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'i', args: ['x'], ports: [{ containerPort: 80 }], resources: {} }] } },
    },
    status: { replicas: 2 },
  };

  it('excludes what kube never owns, and reset fields', () => {
    expect(serializeFieldsV1(fieldSetOf(obj, meta, { resetFields: ['status'] }))).toBe(String.raw`{"f:metadata":{"f:finalizers":{"v:\"a/b\"":{}},"f:labels":{"f:app":{}},"f:ownerReferences":{"k:{\"uid\":\"u1\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}},"f:resources":{}}}}}}}`);
  });

  it('keeps everything with raw, and the status subresource keeps only status and metadata', () => {
    const raw = fieldSetOf(obj, meta, { raw: true });
    expect(has(raw, p('metadata.name'))).toBe(true);
    expect(has(raw, p('apiVersion'))).toBe(true);
    expect(strs(fieldSetOf({ status: obj.status, metadata: { labels: { a: 'b' } } }, meta, { resetFields: ['spec'] }))).toEqual(['.metadata.labels.a', '.status.replicas']);
  });

  it('works from patchMeta alone (every object a struct)', () => {
    expect(serializeFieldsV1(fieldSetOf({ spec: obj.spec }, info.patchMeta))).toBe(serializeFieldsV1(fieldSetOf({ spec: obj.spec }, meta)));
  });
});
