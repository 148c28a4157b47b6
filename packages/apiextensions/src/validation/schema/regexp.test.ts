import { describe, expect, it } from 'vitest';
import { goRegexpError } from './regexp.js';

describe('Go regexp syntax', () => {
  it.each(['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '(?i)^abc$', '(?P<name>x+)', '\\Aabc\\z', '[[:alpha:]]+', '\\pL+', 'a+?b*?', '[+*]', '\\Q.*\\E'])(
    'accepts %s',
    (p) => expect(goRegexpError(p)).toBeUndefined(),
  );

  it.each([
    ['a(b', 'error parsing regexp: missing closing ): `a(b`'],
    ['ab)', 'error parsing regexp: unexpected ): `ab)`'],
    ['[a-', 'error parsing regexp: missing closing ]: `[a-`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
  ])('rejects %s', (p, msg) => expect(goRegexpError(p)).toBe(msg));
});
