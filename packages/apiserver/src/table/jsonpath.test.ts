import { describe, expect, it } from 'vitest';
import { evaluateJSONPath, JSONPathError, parseJSONPath } from './jsonpath.js';

const pod = {
  metadata: {
    name: 'web-0',
    labels: { app: 'web', 'app.kubernetes.io/name': 'shop', 'kubernetes.io/role': 'edge' },
    deletionTimestamp: null,
  },
  spec: {
    containers: [
      { name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }, { containerPort: 443 }] },
      { name: 'sidecar', image: 'envoy:2' },
      { name: 'logger', image: 'fluent:3' },
    ],
  },
  status: {
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', priority: 2 },
      { type: 'PodScheduled', status: 'True', priority: 5 },
    ],
  },
};

const run = (path: string, data: unknown = pod) => evaluateJSONPath(path, data);

describe('evaluateJSONPath', () => {
  it('follows fields, with or without template braces and a leading $', () => {
    expect(run('.metadata.name')).toEqual(['web-0']);
    expect(run('{.metadata.name}')).toEqual(['web-0']);
    expect(run('$.metadata.name')).toEqual(['web-0']);
    expect(run('.metadata.labels.app')).toEqual(['web']);
  });

  it('indexes and slices lists', () => {
    expect(run('.spec.containers[0].name')).toEqual(['app']);
    expect(run('.spec.containers[-1].name')).toEqual(['logger']);
    expect(run('.spec.containers[*].name')).toEqual(['app', 'sidecar', 'logger']);
    expect(run('.spec.containers[1:].image')).toEqual(['envoy:2', 'fluent:3']);
    expect(run('.spec.containers[0:2].name')).toEqual(['app', 'sidecar']);
    expect(run('.spec.containers[::2].name')).toEqual(['app', 'logger']);
    expect(run('.spec.containers[*].ports[*].containerPort')).toEqual([80, 443]);
    expect(run('.spec.containers[0,2].name')).toEqual(['app', 'logger']);
  });

  it('reads keys with dots: escaped or quoted', () => {
    expect(run('.metadata.labels.kubernetes\\.io/role')).toEqual(['edge']);
    expect(run(".metadata.labels['app.kubernetes.io/name']")).toEqual(['shop']);
    expect(run(".metadata.labels['app','kubernetes.io/role']")).toEqual(['web', 'edge']);
  });

  it('filters list elements', () => {
    expect(run('.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(run(".status.conditions[?(@.type=='PodScheduled')].status")).toEqual(['True']);
    expect(run('.status.conditions[?(@.type!="Ready")].type')).toEqual(['Initialized', 'PodScheduled']);
    expect(run('.status.conditions[?(@.priority > 2)].type')).toEqual(['PodScheduled']);
    expect(run('.status.conditions[?(@.priority<=2)].type')).toEqual(['Ready']);
    expect(run('.status.conditions[?(@.priority)].type')).toEqual(['Ready', 'PodScheduled']);
    expect(run('.spec.containers[?(@.image=="envoy:2")].name')).toEqual(['sidecar']);
    // a value of another type never compares equal
    expect(run('.status.conditions[?(@.priority=="2")].type')).toEqual([]);
  });

  it('descends recursively and expands wildcards', () => {
    expect(run('..image')).toEqual(['nginx:1', 'envoy:2', 'fluent:3']);
    expect(run('.spec.containers[0].ports[*]')).toEqual([{ containerPort: 80 }, { containerPort: 443 }]);
    expect(run('.metadata.labels.*')).toEqual(['web', 'shop', 'edge']);
    expect(run('{.}', { a: 1 })).toEqual([{ a: 1 }]);
  });

  it('returns no match for missing keys, wrong types and indexes out of range', () => {
    expect(run('.metadata.annotations.x')).toEqual([]);
    expect(run('.spec.containers.name')).toEqual([]);
    expect(run('.metadata.name[0]')).toEqual([]);
    expect(run('.spec.containers[7].name')).toEqual([]);
    expect(run('.status.conditions[?(@.type=="Ready")].reason')).toEqual([]);
    expect(run('.a.b', null)).toEqual([]);
  });

  it('returns an explicit null as a match', () => {
    expect(run('.metadata.deletionTimestamp')).toEqual([null]);
  });

  it('rejects bad syntax', () => {
    for (const bad of ['.a[', '.a[?(@.x=="1"', '.a[x]', '.a | b', '{.a}{.b}', '.a[?(@.x=~"y")]']) {
      expect(() => parseJSONPath(bad), bad).toThrow(JSONPathError);
    }
  });
});
