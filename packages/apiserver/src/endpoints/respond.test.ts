import { describe, expect, it } from 'vitest';
import { utf8HeaderValue, warningHeader } from './respond.js';

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
