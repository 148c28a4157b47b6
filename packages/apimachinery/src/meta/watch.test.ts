import { describe, expect, it } from 'vitest';
import { newResourceExpired } from '../errors/factories.js';
import { bookmarkEvent, errorEvent, watchEvent } from './watch.js';

describe('watch events', () => {
  it('builds events', () => {
    expect(watchEvent('ADDED', { kind: 'Pod' })).toEqual({ type: 'ADDED', object: { kind: 'Pod' } });
  });

  it('builds bookmarks with only the resource version', () => {
    expect(JSON.stringify(bookmarkEvent({ apiVersion: 'v1', kind: 'Pod' }, '42'))).toBe(
      '{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"42"}}}',
    );
    expect(bookmarkEvent({ apiVersion: 'apps/v1', kind: 'Deployment' }, '7', { initialEventsEnd: true }).object.metadata).toEqual({
      resourceVersion: '7',
      annotations: { 'k8s.io/initial-events-end': 'true' },
    });
  });

  it('builds ERROR events carrying a Status', () => {
    expect(errorEvent(newResourceExpired('too old resource version: 1 (5)'))).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410,
      },
    });
    expect(errorEvent(new Error('boom')).object.code).toBe(500);
  });
});
