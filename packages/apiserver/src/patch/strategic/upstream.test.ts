import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyStrategicMergePatch } from './apply.js';
import { StrategicMergePatchError } from './errors.js';
import { mergeItemMeta, upstreamCases } from './upstream.fixtures.js';

const doc = (source: string): Record<string, unknown> => (parse(source) ?? {}) as Record<string, unknown>;

describe('upstream strategicpatch fixtures', () => {
  for (const c of upstreamCases) {
    it(c.name, () => {
      const apply = (): Record<string, unknown> => applyStrategicMergePatch(doc(c.current), doc(c.patch), mergeItemMeta);
      if (c.error !== undefined) {
        expect(apply).toThrow(StrategicMergePatchError);
        expect(apply).toThrow(c.error);
      } else {
        // JSON equality: list order matters, map key order does not.
        expect(apply()).toStrictEqual(doc(c.result ?? '{}'));
      }
    });
  }
});
