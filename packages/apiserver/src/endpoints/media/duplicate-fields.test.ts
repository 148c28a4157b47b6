import { describe, expect, it } from 'vitest';
import { duplicateJsonFields } from './duplicate-fields.js';

describe('duplicateJsonFields', () => {
  it('names the fields an object repeats, at any depth, in document order', () => {
    expect(duplicateJsonFields('{"a":1,"b":{"c":1,"c":2},"a":3}')).toEqual(['b.c', 'a']);
    expect(duplicateJsonFields('{"spec":{"containers":[{"name":"x","image":"a","image":"b"}]}}')).toEqual(['spec.containers[0].image']);
    expect(duplicateJsonFields(' { "a" : 1 , "a"\n:\t2 } ')).toEqual(['a']);
  });

  it('finds none in a text without duplicates, whatever its strings hold', () => {
    const texts = [
      '{"a":"x:y","b":"\\"c\\":1","c":"\\\\","d":"\\\\\\"e\\":"}',
      `{"data":{"big":"${'x'.repeat(100_000)}","k":"v"},"e":["a:","b\\":"]}`,
      '{"a\\"b":1,"a":2,"ü😀":"\\u0022:"}',
      '{}',
      '[]',
      '"just a string"',
    ];
    for (const text of texts) expect(duplicateJsonFields(text), text.slice(0, 60)).toEqual([]);
  });

  it('reads keys and values with escapes right when there are duplicates', () => {
    // A backslash before a quote ends the string when it is itself escaped (an even number of them).
    expect(duplicateJsonFields('{"k\\\\":"v\\\\","k\\\\":2}')).toEqual(['k\\']);
    expect(duplicateJsonFields('{"a":"\\"a\\":1","a":"x"}')).toEqual(['a']);
    // An escaped quote followed by a colon inside a value is no member.
    expect(duplicateJsonFields('{"a":"\\":","b":1,"b":2}')).toEqual(['b']);
    expect(duplicateJsonFields('{"a":"x\\":y","b":1,"b":2}')).toEqual(['b']);
    expect(duplicateJsonFields(`{"a":{"x":"${'y'.repeat(50_000)}\\\\"},"a":1}`)).toEqual(['a']);
  });
});
