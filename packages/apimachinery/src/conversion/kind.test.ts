import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status-error.js';
import type { KubeObject } from '../meta/object.js';
import { kindConversion } from './kind.js';
import type { KindConversionSpec } from './types.js';

// A kind in three versions, stored in v2: v1 has `size` (v2's `replicas`, converted by hooks) and a `legacy` field
// of its own; v2 has `notes` that neither other version has; v1beta1 differs from v2 only by lacking `notes`.
const spec = (overrides: Partial<KindConversionSpec> = {}): KindConversionSpec => ({
  group: 'example.com',
  kind: 'Widget',
  storageVersion: 'v2',
  versions: {
    v1: {
      toStorage: {
        plan: { props: { apiVersion: 1, kind: 1, metadata: 1, spec: { props: { color: 1 }, preserve: ['legacy'], manual: ['size'] } } },
        hook: (from, to) => {
          const size = (from.spec as { size?: number } | undefined)?.size;
          if (size !== undefined) ((to.spec ??= {}) as Record<string, unknown>).replicas = size;
        },
      },
      fromStorage: {
        plan: { props: { apiVersion: 1, kind: 1, metadata: 1, spec: { props: { color: 1 }, preserve: ['notes'], manual: ['replicas'] } } },
        hook: (from, to) => {
          const replicas = (from.spec as { replicas?: number } | undefined)?.replicas;
          if (replicas !== undefined) ((to.spec ??= {}) as Record<string, unknown>).size = replicas;
        },
      },
    },
    v1beta1: {
      toStorage: { plan: { props: { apiVersion: 1, kind: 1, metadata: 1, spec: { props: { color: 1, replicas: 1 } } } } },
      fromStorage: { plan: { props: { apiVersion: 1, kind: 1, metadata: 1, spec: { props: { color: 1, replicas: 1 } , preserve: ['notes'] } } } },
    },
  },
  ...overrides,
});

const widget = (version: string, fields: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: `example.com/${version}`,
  kind: 'Widget',
  metadata: { name: 'w', ...(annotations ? { annotations } : {}) },
  spec: fields,
});

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

const one = (obj: KubeObject, to: string) => kindConversion(spec()).convert([obj], `example.com/${to}`) as KubeObject[];

describe('kindConversion', () => {
  it('sets apiVersion and kind, converts automatic fields and runs the hook', () => {
    const [out] = one(widget('v1', { color: 'red', size: 3 }), 'v2');
    expect(out).toEqual(widget('v2', { color: 'red', replicas: 3 }));
  });

  it("keeps a version's preserved fields in its annotation and restores them on the way back (V→S→V)", () => {
    const original = widget('v1', { color: 'red', size: 3, legacy: { old: [1, 2] } }, { mine: 'kept' });
    const [stored] = one(original, 'v2');
    expect(stored.metadata?.annotations).toEqual({ mine: 'kept', 'conversion.kapi.dev/v1': '{"spec":{"legacy":{"old":[1,2]}}}' });
    expect(stored.spec).toEqual({ color: 'red', replicas: 3 });
    const [back] = one(stored, 'v1');
    expect(back).toEqual(original);
  });

  it("keeps the storage version's fields the other cannot hold (S→V→S)", () => {
    const original = widget('v2', { color: 'blue', replicas: 2, notes: 'n' });
    const [served] = one(original, 'v1');
    expect(served).toEqual(widget('v1', { color: 'blue', size: 2 }, { 'conversion.kapi.dev/v2': '{"spec":{"notes":"n"}}' }));
    const [back] = one(served, 'v2');
    expect(back).toEqual(original);
  });

  it('chains two non-storage versions through the storage version', () => {
    const [beta] = one(widget('v1', { color: 'red', size: 3, legacy: 'L' }), 'v1beta1');
    expect(beta).toEqual(widget('v1beta1', { color: 'red', replicas: 3 }, { 'conversion.kapi.dev/v1': '{"spec":{"legacy":"L"}}' }));
    const [v1] = one(beta, 'v1');
    expect(v1).toEqual(widget('v1', { color: 'red', size: 3, legacy: 'L' }));
  });

  it('never mutates its inputs (frozen ones included) and shares nothing with them', () => {
    const input = deepFreeze(widget('v1', { color: 'red', size: 1, legacy: { a: 1 } }, { x: 'y', 'conversion.kapi.dev/v2': '{"spec":{"notes":"n"}}' }));
    const copy = structuredClone(input);
    const [out] = one(input, 'v2');
    expect(input).toEqual(copy);
    expect(out.metadata).not.toBe(input.metadata);
    expect(out.spec).toEqual({ color: 'red', replicas: 1, notes: 'n' });
    expect(out.metadata?.annotations).toEqual({ x: 'y', 'conversion.kapi.dev/v1': '{"spec":{"legacy":{"a":1}}}' });
  });

  it("ignores an annotation value that is not JSON (and drops it), keeping the client's own annotations", () => {
    const [out] = one(widget('v1', { color: 'red' }, { 'conversion.kapi.dev/v2': '{not json', own: 'a' }), 'v2');
    expect(out.metadata?.annotations).toEqual({ own: 'a' });
    expect(out.spec).toEqual({ color: 'red' });
  });

  it('lets a hook keep a value the target version cannot hold', () => {
    const conversion = kindConversion(
      spec({
        versions: {
          v1: {
            toStorage: { plan: 1 },
            fromStorage: { plan: { props: { apiVersion: 1, kind: 1, metadata: 1 } }, hook: (from, _to, ctx) => ctx.preserve(['spec', 'x'], (from.spec as { x: unknown }).x) },
          },
        },
      }),
    );
    const [out] = conversion.convert([widget('v2', { x: [1] })], 'example.com/v1') as KubeObject[];
    expect(out.metadata?.annotations).toEqual({ 'conversion.kapi.dev/v2': '{"spec":{"x":[1]}}' });
  });

  it('refuses an unknown version, asked for or given, with a 400 Status', () => {
    const conversion = kindConversion(spec());
    const attempt = (objects: KubeObject[], to: string) => {
      try {
        conversion.convert(objects, to);
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const asked = attempt([widget('v1', {})], 'example.com/v3');
    expect(asked).toBeInstanceOf(StatusError);
    expect((asked as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect((asked as StatusError).status.message).toContain('"example.com/v3"');
    expect(attempt([widget('v9', {})], 'example.com/v2')).toBeInstanceOf(StatusError);
    expect(attempt([{ ...widget('v1', {}), apiVersion: 'other.com/v1' }], 'example.com/v2')).toBeInstanceOf(StatusError);
    expect(attempt([{ ...widget('v1', {}), apiVersion: 'a/b/c' }], 'example.com/v2')).toBeInstanceOf(StatusError);
  });

  it('passes the StatusError a hook throws through unchanged', () => {
    const boom = new StatusError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 422, reason: 'Invalid', message: 'spec.size: Invalid value' });
    const conversion = kindConversion(spec({ versions: { v1: { toStorage: { plan: 1, hook: () => { throw boom; } }, fromStorage: { plan: 1 } } } }));
    expect(() => conversion.convert([widget('v1', {})], 'example.com/v2')).toThrow(boom);
  });

  it('round-trips random objects losslessly both ways', () => {
    const conversion = kindConversion(spec());
    const annotations = fc.option(fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !k.startsWith('conversion.kapi.dev/')), fc.string(), { minKeys: 1 }), { nil: undefined });
    const json = fc.jsonValue();
    const v1 = fc.record({ color: fc.string(), size: fc.integer(), legacy: json }, { requiredKeys: [] });
    const v2 = fc.record({ color: fc.string(), replicas: fc.integer(), notes: json }, { requiredKeys: [] });
    const there = (obj: KubeObject, a: string, b: string) => conversion.convert(conversion.convert([obj], `example.com/${a}`) as KubeObject[], `example.com/${b}`) as KubeObject[];
    fc.assert(
      fc.property(v1, annotations, (fields, a) => {
        const original = deepFreeze(JSON.parse(JSON.stringify(widget('v1', fields, a))) as KubeObject);
        expect(there(original, 'v2', 'v1')[0]).toStrictEqual(original);
      }),
    );
    fc.assert(
      fc.property(v2, annotations, (fields, a) => {
        const original = deepFreeze(JSON.parse(JSON.stringify(widget('v2', fields, a))) as KubeObject);
        expect(there(original, 'v1', 'v2')[0]).toStrictEqual(original);
      }),
    );
  });
});
