// kube's CEL libraries as rules see them: each expression must hold (or fail with kube's error).
import { describe, expect, it } from 'vitest';
import { object, resource, validatorOf } from '../test/helpers.js';

const holds = (...rules: string[]) => {
  const v = validatorOf(resource(object({ s: { type: 'string' } }, rules.map((rule) => ({ rule })))));
  return v({ spec: { s: 'x' } });
};

describe('kube CEL libraries', () => {
  it('strings extension', () => {
    expect(
      holds(
        "'hello'.charAt(1) == 'e' && 'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3",
        "'HeLLo'.lowerAscii() == 'hello' && 'hello'.upperAscii() == 'HELLO' && '  x '.trim() == 'x'",
        "'a,b,c'.split(',') == ['a', 'b', 'c'] && ['a', 'b'].join('-') == 'a-b' && 'hello'.substring(1, 3) == 'el'",
        "'aaa'.replace('a', 'b', 2) == 'bba' && 'x=%d, y=%s'.format([1, 'z']) == 'x=1, y=z' && strings.quote('a\"b') == '\"a\\\\\"b\"'",
      ),
    ).toEqual([]);
  });

  it('lists', () => {
    expect(
      holds(
        '[1, 2, 3].isSorted() && ![2, 1].isSorted() && [1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0',
        "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ['b', 'a'].min() == 'a'",
        '[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1',
      ),
    ).toEqual([]);
    expect(holds('[].min() == 1')).toEqual(['spec: Invalid value: "object": min called on empty list evaluating rule: [].min() == 1']);
  });

  it('regex', () => {
    expect(
      holds(
        "'abc 123 def 456'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''",
        "'abc 123 def 456'.findAll('[0-9]+') == ['123', '456'] && 'a1b2c3'.findAll('[0-9]', 2) == ['1', '2']",
        "'ab'.matches('^a') && !'ab'.matches('^b')",
      ),
    ).toEqual([]);
    expect(holds("'a'.find('(') == ''")[0]).toContain('error parsing regexp');
  });

  it('urls', () => {
    expect(
      holds(
        "isURL('https://example.com:8080/p?q=1&q=2') && !isURL('not a url') && isURL('/absolute/path')",
        "url('https://example.com:8080/p').getScheme() == 'https' && url('https://example.com:8080/p').getHost() == 'example.com:8080'",
        "url('https://[::1]:80/').getHostname() == '::1' && url('https://example.com:8080/p').getPort() == '8080'",
        "url('https://example.com/a/b').getEscapedPath() == '/a/b' && url('https://x/?q=1&q=2&r=3').getQuery() == {'q': ['1', '2'], 'r': ['3']}",
      ),
    ).toEqual([]);
  });

  it('quantity', () => {
    expect(
      holds(
        "isQuantity('1.5Gi') && !isQuantity('1.5GiB') && quantity('1Gi') == quantity('1024Mi')",
        "quantity('1Gi').isGreaterThan(quantity('1000Mi')) && quantity('500m').isLessThan(quantity('1')) && quantity('1k').compareTo(quantity('1000')) == 0",
        "quantity('1').add(quantity('500m')) == quantity('1500m') && quantity('2').sub(1) == quantity('1') && quantity('1').add(2) == quantity('3')",
        "quantity('-2').sign() == -1 && quantity('1.5').isInteger() == false && quantity('2k').asInteger() == 2000 && quantity('1.5').asApproximateFloat() == 1.5",
      ),
    ).toEqual([]);
    expect(holds("quantity('1.5').asInteger() == 1")).toEqual([
      "spec: Invalid value: \"object\": cannot convert value to integer evaluating rule: quantity('1.5').asInteger() == 1",
    ]);
  });

  it('ip and cidr', () => {
    expect(
      holds(
        "isIP('10.0.0.1') && isIP('2001:db8::1') && !isIP('10.0.0.01') && !isIP('::ffff:10.0.0.1') && !isIP('fe80::1%eth0')",
        "ip('10.0.0.1').family() == 4 && ip('::1').isLoopback() && ip('0.0.0.0').isUnspecified() && ip('8.8.8.8').isGlobalUnicast()",
        "ip('169.254.1.1').isLinkLocalUnicast() && ip('224.0.0.1').isLinkLocalMulticast() && string(ip('2001:DB8::1')) == '2001:db8::1'",
        "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:db8:0:0::1') && ip('10.0.0.1') == ip('10.0.0.1')",
        "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && cidr('10.0.0.0/8').containsIP('10.1.2.3') && cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))",
        "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8') && cidr('10.0.0.1/8').masked() == cidr('10.0.0.0/8')",
        "cidr('10.0.0.1/8').ip() == ip('10.0.0.1') && cidr('2001:db8::/32').prefixLength() == 32 && string(cidr('10.0.0.1/8').masked()) == '10.0.0.0/8'",
      ),
    ).toEqual([]);
  });

  it('format', () => {
    expect(
      holds(
        "!format.dns1123Label().validate('my-name').hasValue() && format.dns1123Label().validate('My_Name').hasValue()",
        "format.named('dns1123Subdomain').value().validate('a.b').orValue([]).size() == 0 && !format.named('nope').hasValue()",
        "!format.labelValue().validate('').hasValue() && !format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
        // kube's maskTrailingDash: a prefix ending in '-' is checked without its last two characters, plus 'a'.
        "!format.dns1123SubdomainPrefix().validate('A-').hasValue() && !format.dns1123LabelPrefix().validate('ab-').hasValue() && format.dns1035LabelPrefix().validate('1a-').hasValue() && format.dns1123LabelPrefix().validate('a_b-').hasValue()",
        "format.dns1035Label().validate('1abc').value() == [\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"]",
      ),
    ).toEqual([]);
  });

  it('semver', () => {
    expect(
      holds(
        "isSemver('1.2.3-rc.1+build') && !isSemver('v1.2') && isSemver('v1.2', true) && semver('v01.2', true) == semver('1.2.0')",
        "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
        "semver('1.10.0').isGreaterThan(semver('1.9.9')) && semver('1.0.0-alpha').isLessThan(semver('1.0.0')) && semver('1.0.0-2').compareTo(semver('1.0.0-10')) == -1",
      ),
    ).toEqual([]);
    expect(holds("semver('1.02.0').major() == 1")).toEqual([
      'spec: Invalid value: "object": Minor number must not contain leading zeroes "02" evaluating rule: semver(\'1.02.0\').major() == 1',
    ]);
  });

  it('sets and optionals', () => {
    expect(
      holds(
        'sets.contains([1, 2, 3], [1, 2]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [1, 5]) && !sets.intersects([1], [2])',
        'optional.of(1).hasValue() && !optional.none().hasValue() && optional.none().orValue(2) == 2 && optional.of(1).value() == 1',
        "optional.none().or(optional.of('a')).value() == 'a' && !optional.ofNonZeroValue('').hasValue()",
      ),
    ).toEqual([]);
  });

  it('standard functions and macros', () => {
    expect(
      holds(
        "[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2) && [1, 2, 3].exists_one(x, x == 2)",
        "[1, 2, 3].map(x, x * 2) == [2, 4, 6] && [1, 2, 3].filter(x, x > 1) == [2, 3] && [1, 2, 3].map(x, x > 1, x) == [2, 3]",
        "{'a': 1}.all(k, k == 'a') && size('abc') == 3 && int('12') == 12 && string(1) == '1' && double(1) == 1.0",
        "timestamp('2024-01-01T00:00:00Z') + duration('1h') > timestamp('2024-01-01T00:30:00Z') && 1 < 1.5",
      ),
    ).toEqual([]);
  });
});
