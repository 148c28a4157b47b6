import { describe, expect, it } from 'vitest';
import { parseGoURL } from './go-url.js';

describe("Go's url.Parse", () => {
  it('splits scheme, host, user, query and fragment', () => {
    expect(parseGoURL('HTTPS://u:p@host:8443/a/b?x=1#frag')).toEqual({ scheme: 'https', host: 'host:8443', user: 'u:p', rawQuery: 'x=1', fragment: 'frag' });
    expect(parseGoURL('/relative/path')).toEqual({ scheme: '', host: '', rawQuery: '', fragment: '' });
    expect(parseGoURL('mailto:someone')).toEqual({ scheme: 'mailto', host: '', rawQuery: '', fragment: '' });
  });

  it("answers Go's errors", () => {
    expect(parseGoURL(':x')).toEqual({ error: 'parse ":x": missing protocol scheme' });
    expect(parseGoURL('https://h\x7f/')).toEqual({ error: 'parse "https://h\\x7f/": net/url: invalid control character in URL' });
    expect(parseGoURL('a:b/c'.replace('a:', '1a:'))).toEqual({ error: 'parse "1a:b/c": first path segment in URL cannot contain colon' });
    expect(parseGoURL('https://h/#%zz')).toEqual({ error: 'parse "https://h/#%zz": invalid URL escape "%zz"' });
  });
});
