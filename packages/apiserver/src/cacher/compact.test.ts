import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeepFrozen } from './cache-event.js';

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    creationTimestamp: '2026-11-29T04:50:03Z',
    labels: {},
    finalizers: [],
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        time: '2026-11-29T04:50:03Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    ],
  },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27.3-alpine', args: [] }] },
});

describe('cached objects held compactly', () => {
  it('are equal to what was decoded, frozen through and through, and encode to the same JSON', () => {
    const decoded = JSON.parse(JSON.stringify(pod('a')));
    const cached = deepFreeze(JSON.parse(JSON.stringify(pod('a'))));
    expect(cached).toEqual(decoded);
    expect(JSON.stringify(cached)).toBe(JSON.stringify(decoded));
    expect(isDeepFrozen(cached)).toBe(true);
    const frozenEverywhere = (v: unknown): boolean =>
      !v || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(frozenEverywhere));
    expect(frozenEverywhere(cached)).toBe(true);
  });

  it('share equal parts between objects: empty objects and arrays, fieldsV1 trees, timestamps', () => {
    const a = deepFreeze(JSON.parse(JSON.stringify(pod('a'))));
    const b = deepFreeze(JSON.parse(JSON.stringify(pod('b'))));
    expect(a.metadata.labels).toBe(b.metadata.labels);
    expect(a.metadata.finalizers).toBe(b.metadata.finalizers);
    expect(a.spec.containers[0].args).toBe(b.metadata.finalizers);
    expect(a.metadata.managedFields[0].fieldsV1).toBe(b.metadata.managedFields[0].fieldsV1);
    // Objects that differ stay apart.
    const c = deepFreeze({ ...JSON.parse(JSON.stringify(pod('c'))), spec: { containers: [{ name: 'db' }] } });
    expect(c.spec).not.toBe(a.spec);
    expect(c.spec.containers[0].name).toBe('db');
  });

  it('keep hostile keys as own properties', () => {
    const hostile = JSON.parse('{"metadata":{"labels":{"__proto__":"x","constructor":"2026-11-29T04:50:03Z"}},"data":{"__proto__":{}}}');
    const cached = deepFreeze(hostile);
    expect(Object.getPrototypeOf(cached.metadata.labels)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(cached.data)).toBe(Object.prototype);
    expect(Object.keys(cached.data)).toEqual(['__proto__']);
    expect(JSON.stringify(cached)).toBe('{"metadata":{"labels":{"__proto__":"x","constructor":"2026-11-29T04:50:03Z"}},"data":{"__proto__":{}}}');
  });

  it('can be changed by nobody, shared parts included', () => {
    const a = deepFreeze(JSON.parse(JSON.stringify(pod('a'))));
    expect(() => {
      'use strict';
      (a.metadata.labels as Record<string, string>).x = 'y';
    }).toThrow(TypeError);
    expect(() => (a.metadata.finalizers as string[]).push('x')).toThrow(TypeError);
    expect(deepFreeze({}).constructor).toBe(Object);
    expect(Object.keys(deepFreeze(JSON.parse(JSON.stringify(pod('b')))).metadata.labels)).toEqual([]);
  });
});
