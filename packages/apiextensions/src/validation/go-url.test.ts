import { describe, expect, it } from 'vitest';
import { goParseURL } from './go-url.js';

describe("Go's url.Parse", () => {
  it('splits scheme, host, user, query and fragment', () => {
    expect(goParseURL('HTTPS://u:p@host:8443/a/b?x=1#frag')).toEqual({ scheme: 'https', host: 'host:8443', user: 'u:p', rawQuery: 'x=1', fragment: 'frag' });
    expect(goParseURL('/relative/path')).toEqual({ scheme: '', host: '', rawQuery: '', fragment: '' });
    expect(goParseURL('mailto:someone')).toEqual({ scheme: 'mailto', host: '', rawQuery: '', fragment: '' });
  });

  it("answers Go's errors", () => {
    expect(goParseURL(':x')).toBe('parse ":x": missing protocol scheme');
    expect(goParseURL('https://h\x7f/')).toBe('parse "https://h\\x7f/": net/url: invalid control character in URL');
    expect(goParseURL('a:b/c'.replace('a:', '1a:'))).toBe('parse "1a:b/c": first path segment in URL cannot contain colon');
    expect(goParseURL('https://h/#%zz')).toBe('parse "https://h/#%zz": invalid URL escape "%zz"');
  });
});
