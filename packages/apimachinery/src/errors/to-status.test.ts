import { describe, expect, it } from 'vitest';
import { newNotFound } from './factories.js';
import { StatusError } from './status-error.js';
import { toStatus } from './to-status.js';

describe('toStatus', () => {
  it('returns the Status of a StatusError', () => {
    expect(toStatus(newNotFound({ group: '', resource: 'pods' }, 'a'))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'pods "a" not found', reason: 'NotFound', details: { name: 'a', kind: 'pods' }, code: 404,
    });
  });

  it('fills in what a hand-made StatusError lacks', () => {
    expect(toStatus(new StatusError({ message: 'x' }))).toEqual({
      message: 'x', kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500,
    });
  });

  it('turns other errors into a 500 without a stack trace', () => {
    const err = new TypeError('cannot read properties of undefined');
    const status = toStatus(err);
    expect(status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Internal error occurred: cannot read properties of undefined',
      reason: 'InternalError',
      details: { causes: [{ message: 'cannot read properties of undefined' }] },
      code: 500,
    });
    expect(JSON.stringify(status)).not.toContain('at ');
  });

  it('accepts thrown non-errors', () => {
    expect(toStatus('nope').message).toBe('Internal error occurred: nope');
    expect(toStatus({ a: 1 }).message).toBe('Internal error occurred: {"a":1}');
    expect(toStatus(undefined).message).toBe('Internal error occurred: undefined');
  });
});
