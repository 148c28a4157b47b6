import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseYamlText, toYaml } from './yaml.js';

// Strings that YAML 1.1 readers (PyYAML, Go's yaml.v2) or YAML 1.2 readers would take for booleans, nulls,
// numbers, dates or merge keys if written plain.
const AWKWARD = [
  'on', 'off', 'On', 'OFF', 'yes', 'no', 'Yes', 'NO', 'y', 'n', 'Y', 'N', 'true', 'False', 'TRUE',
  '~', 'null', 'Null', 'NULL', '', '0x1F', '0o17', '017', '1e3', '1.5', '-2', '+3', '.5', '1_000', '.inf', '-.Inf', '.nan', '.NaN',
  '2024-01-01', '2001-12-14t21:59:43.10-05:00', '190:20:30', '<<', '=', ' lead', 'trail ', 'a: b', '- x', '#c', '*x', '&y',
  '!tag', '%dir', '@at', '`tick', '"q"', "'s'", '{a}', '[b]', 'multi\nline', 'tab\there', 'ünïcode',
];

describe('YAML output', () => {
  it('means the same to YAML 1.1 and YAML 1.2 readers, keys and values alike', () => {
    const data = Object.fromEntries(AWKWARD.map((s, i) => [s || `empty${i}`, s]));
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { on: 'yes' } }, data, n: 5, b: true, z: null };
    const text = toYaml(obj);
    expect(parse(text, { version: '1.1' })).toEqual(obj);
    expect(parse(text, { version: '1.2' })).toEqual(obj);
  });

  it('quotes what kube quotes and leaves ordinary strings plain', () => {
    const text = toYaml({ data: { on: 'yes', y: 'n', ts: '2024-01-01', name: 'hello', image: 'nginx:1.25' } });
    expect(text).toBe('data:\n  image: nginx:1.25\n  name: hello\n  "on": "yes"\n  ts: "2024-01-01"\n  "y": "n"\n');
  });

  it('orders keys as yaml.v2 does (kube\'s YAML): letters by code point, numbers by value', () => {
    const keys = ['b', 'a10', 'A', 'a2', 'a', '_x', '1', '10', '2', 'a.b', 'a-b', 'ab'];
    const text = toYaml(Object.fromEntries(keys.map((k) => [k, 1])));
    expect(text.trimEnd().split('\n').map((l) => l.slice(0, l.lastIndexOf(':')).replace(/"/g, ''))).toEqual(
      // Neither letters nor digits compare as the number 0 (keyList.Less), so `_x` comes before `1`.
      ['_x', '1', '2', '10', 'A', 'a', 'a-b', 'a.b', 'a2', 'a10', 'ab', 'b'],
    );
  });

  it('writes an object that appears twice in full both times, without anchors or aliases (kube has none)', () => {
    const shared = { a: '1' };
    const text = toYaml({ first: shared, second: shared });
    expect(text).toBe('first:\n  a: "1"\nsecond:\n  a: "1"\n');
  });
});

describe('parseYamlText on JSON texts (parsed as JSON, the same value as YAML gives)', () => {
  it('gives what the YAML parser gives for JSON', () => {
    const texts = [
      '{"a":1,"b":[1,2.5,-0,1e3,9007199254740991],"c":{"d":null,"e":true,"f":"x"}}',
      '  {"s":"\\u00fc\\ud83d\\ude00 \\/ \\" \\\\ \\n\\t","t":"line\\r\\nbreak"}',
      '{"dup":1,"dup":2}',
      '{"__proto__":{"polluted":true},"constructor":1}',
      '[{"a":[[]]},{}]',
      '\t{ "a" : [ 1 , 2 ] }\n',
    ];
    for (const text of texts) {
      expect(parseYamlText(text), text).toEqual(parse(text, { uniqueKeys: false }));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('still refuses what is too deep, and parses as YAML what JSON refuses', () => {
    expect(() => parseYamlText(`${'['.repeat(300)}${']'.repeat(300)}`)).toThrow();
    expect(parseYamlText('{a: 1, "b": [x, w]}')).toEqual({ a: 1, b: ['x', 'w'] });
    expect(parseYamlText('{"a": 1} # a comment')).toEqual({ a: 1 });
  });
});

describe('parseYamlText reads YAML as kube does (go-yaml v2: YAML 1.1)', () => {
  it('takes yes/no/on/off/y/n for booleans, keys included, 017 for octal and << for a merge', () => {
    const text = 'a: yes\nb: Off\nc: y\nd: NO\ne: 017\nf: 1_000\nbase: &b {x: 1}\nm:\n  <<: *b\n  z: 2\ny: key\n';
    expect(parseYamlText(text)).toEqual({ a: true, b: false, c: true, d: false, e: 15, f: 1000, base: { x: 1 }, m: { x: 1, z: 2 }, true: 'key' });
  });

  it('keeps dates, times and sexagesimal numbers as strings, as go-yaml v2 does when decoding into interface{}', () => {
    expect(parseYamlText('d: 2001-12-14\nt: 2001-12-14t21:59:43.10-05:00\ns: 190:20:30\nq: "yes"\n')).toEqual({ d: '2001-12-14', t: '2001-12-14t21:59:43.10-05:00', s: '190:20:30', q: 'yes' });
  });
});
