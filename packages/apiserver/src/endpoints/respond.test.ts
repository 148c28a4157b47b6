import { describe, expect, it } from 'vitest';
import { recordedWarnings, utf8HeaderValue, warningHeader } from './respond.js';

/** What a client reads from the header's bytes: UTF-8. */
const asClientReads = (value: string) => new TextDecoder().decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));

describe('warningHeader', () => {
  it('writes ASCII warnings as they are', () => {
    expect(warningHeader([])).toEqual({});
    expect(warningHeader(['unknown field "spec.x"', 'b'])).toEqual({ Warning: '299 - "unknown field \\"spec.x\\"", 299 - "b"' });
  });

  it('writes any other text as its UTF-8 bytes, a value Headers accepts (it threw past U+00FF: a 500)', () => {
    for (const field of ['ключ', '\ufffdx', 'é', '😀', '\u2028']) {
      const { Warning } = warningHeader([`unknown field "${field}"`]);
      expect(() => new Headers({ Warning })).not.toThrow();
      expect(asClientReads(new Headers({ Warning }).get('warning')!)).toBe(`299 - ${JSON.stringify(`unknown field "${field}"`)}`);
    }
    expect(utf8HeaderValue('é')).toBe('\u00c3\u00a9');
  });
});

describe('recordedWarnings (kube\'s warning recorder)', () => {
  it('drops warnings with control characters and empty ones, as kube refuses to write them', () => {
    expect(recordedWarnings(['ok', 'line\nbreak', 'tab\there', '', 'bell\u0007', 'also ok'])).toEqual(['ok', 'also ok']);
  });

  it('keeps warnings up to 4,096 characters in all; past that cuts each to 256 and stops once 4,096 are written', () => {
    const small = Array.from({ length: 10 }, (_, i) => `w${i}`.padEnd(100, '.'));
    expect(recordedWarnings(small)).toEqual(small);
    const many = Array.from({ length: 1000 }, (_, i) => `warning ${i} `.padEnd(300, 'x'));
    const kept = recordedWarnings(many);
    expect(kept.every((w) => w.length === 256)).toBe(true);
    expect(kept.length).toBe(16);
    expect(kept[0]).toBe(many[0].slice(0, 256));
    const header = warningHeader(many).Warning;
    expect(header.length).toBeLessThan(8 * 1024);
    expect(() => new Headers({ Warning: header })).not.toThrow();
  });
});

