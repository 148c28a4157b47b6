import { describe, expect, it } from 'vitest';
import { isStatusError } from '../errors/status-error.js';
import { escapeFieldSelectorValue } from './field-escape.js';
import { fieldSelectorFromSet, parseFieldSelector } from './field-selector.js';

const messageOf = (selector: string): string => {
  try {
    parseFieldSelector(selector);
  } catch (err) {
    if (isStatusError(err) && err.status.code === 400 && err.status.reason === 'BadRequest') return err.message;
    throw err;
  }
  throw new Error('expected a BadRequest');
};

describe('parseFieldSelector', () => {
  it('parses =, == and != terms in sorted order', () => {
    const sel = parseFieldSelector('spec.nodeName!=n1,metadata.namespace==default,metadata.name=web');
    expect(sel.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'web' },
      { field: 'metadata.namespace', operator: '=', value: 'default' },
      { field: 'spec.nodeName', operator: '!=', value: 'n1' },
    ]);
    expect(sel.toString()).toBe('metadata.name=web,metadata.namespace=default,spec.nodeName!=n1');
    expect(sel.requiresExactMatch('metadata.name')).toBe('web');
    expect(sel.requiresExactMatch('spec.nodeName')).toBeUndefined();
  });

  it('matches flat field maps, a missing field being empty', () => {
    const sel = parseFieldSelector('metadata.name=web,spec.nodeName!=n1');
    expect(sel.matches({ 'metadata.name': 'web', 'spec.nodeName': 'n2' })).toBe(true);
    expect(sel.matches({ 'metadata.name': 'web' })).toBe(true);
    expect(sel.matches({ 'metadata.name': 'web', 'spec.nodeName': 'n1' })).toBe(false);
    expect(parseFieldSelector('spec.nodeName=').matches({})).toBe(true);
    expect(parseFieldSelector('').isEmpty()).toBe(true);
    expect(parseFieldSelector(',,').matches({})).toBe(true);
  });

  it('unescapes values and escapes them back', () => {
    const sel = parseFieldSelector('a=x\\,y\\=z\\\\,b=c');
    expect(sel.requirements).toEqual([
      { field: 'a', operator: '=', value: 'x,y=z\\' },
      { field: 'b', operator: '=', value: 'c' },
    ]);
    expect(sel.toString()).toBe('a=x\\,y\\=z\\\\,b=c');
    expect(escapeFieldSelectorValue('a,b=c\\')).toBe('a\\,b\\=c\\\\');
  });

  it('rejects malformed selectors with kube messages', () => {
    expect(messageOf('metadata.name')).toBe("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
    expect(messageOf('b=1,a')).toBe("invalid selector: 'b=1,a'; can't understand 'a'");
    expect(messageOf('a=b=c')).toBe('invalid field selector: unescaped character in value: 61');
    expect(messageOf('a=b\\x')).toBe('invalid field selector: invalid escape sequence: \\x');
    expect(messageOf('a=b\\')).toBe('invalid field selector: invalid escape sequence: \\');
  });

  it('builds selectors from sets', () => {
    expect(fieldSelectorFromSet({ 'metadata.name': 'a' }).matches({ 'metadata.name': 'a' })).toBe(true);
  });
});
