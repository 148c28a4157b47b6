import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';
import type { FieldTree } from './types.js';

const tree: FieldTree = {
  types: {
    'v1/W': { props: { spec: 'v1/W.Spec' } },
    'v1/W.Spec': { props: { mode: 0, ports: { a: 'v1/Port' }, opts: 'v1/Opts' }, defaults: { mode: 'Auto', opts: { level: 1 } } },
    'v1/Port': { props: { port: 0, protocol: 0 }, defaults: { protocol: 'TCP' } },
    'v1/Opts': { props: { level: 0 } },
  },
};

describe('applyDefaults', () => {
  it('fills absent properties at every depth and leaves given values alone', () => {
    const obj = { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] } };
    applyDefaults(tree, 'v1/W', obj);
    expect(obj).toEqual({
      spec: { mode: 'Auto', opts: { level: 1 }, ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] },
    });
  });

  it('does not create parents that are absent, and copies default objects', () => {
    const a: Record<string, any> = {};
    applyDefaults(tree, 'v1/W', a);
    expect(a).toEqual({});
    const b: Record<string, any> = { spec: {} };
    const c: Record<string, any> = { spec: {} };
    applyDefaults(tree, 'v1/W', b);
    applyDefaults(tree, 'v1/W', c);
    b.spec.opts.level = 9;
    expect(c.spec.opts.level).toBe(1);
  });
});
