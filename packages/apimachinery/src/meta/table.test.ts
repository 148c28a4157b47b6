import { describe, expect, it } from 'vitest';
import { CREATED_AT_COLUMN_DESCRIPTION, NAME_COLUMN_DESCRIPTION, defaultTable, defaultTableColumns } from './table.js';

const pod = (name: string, creationTimestamp?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', resourceVersion: '10', ...(creationTimestamp ? { creationTimestamp } : {}) },
  spec: { containers: [] },
});

describe('default Table', () => {
  it('declares kube default columns', () => {
    expect(defaultTableColumns()).toEqual([
      { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: CREATED_AT_COLUMN_DESCRIPTION, priority: 0 },
    ]);
    expect(NAME_COLUMN_DESCRIPTION.startsWith('Name must be unique within a namespace.')).toBe(true);
  });

  it('builds a table of a list with PartialObjectMetadata rows', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'PodList',
      metadata: { resourceVersion: '99', continue: 'abc', remainingItemCount: 3 },
      items: [pod('a', '2024-05-01T10:00:00Z'), pod('b')],
    };
    const table = defaultTable(list);
    expect(table).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '99', continue: 'abc', remainingItemCount: 3 },
      columnDefinitions: defaultTableColumns(),
      rows: [
        {
          cells: ['a', '2024-05-01T10:00:00Z'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: { name: 'a', namespace: 'default', resourceVersion: '10', creationTimestamp: '2024-05-01T10:00:00Z' },
          },
        },
        {
          cells: ['b', '0001-01-01T00:00:00Z'],
          object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'b', namespace: 'default', resourceVersion: '10' } },
        },
      ],
    });
    expect(Object.keys(table)).toEqual(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  });

  it('builds a table of one object, honouring includeObject and noHeaders', () => {
    const obj = pod('a', '2024-05-01T12:00:00+02:00');
    const full = defaultTable(obj, { includeObject: 'Object', apiVersion: 'meta.k8s.io/v1beta1' });
    expect(full.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(full.metadata).toEqual({ resourceVersion: '10' });
    expect(full.rows).toEqual([{ cells: ['a', '2024-05-01T10:00:00Z'], object: obj }]);
    const bare = defaultTable(obj, { includeObject: 'None', noHeaders: true });
    expect(bare.columnDefinitions).toEqual([]);
    expect(bare.rows).toEqual([{ cells: ['a', '2024-05-01T10:00:00Z'], object: null }]);
  });
});
