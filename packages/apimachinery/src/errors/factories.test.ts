import { describe, expect, it } from 'vitest';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newGone,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotAcceptable,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServerTimeout,
  newServiceUnavailable,
  newTimeout,
  newTooLargeResourceVersion,
  newTooManyRequests,
  newUnauthorized,
  newUnsupportedMediaType,
} from './factories.js';
import { isNotFound, isConflict, reasonForError } from './predicates.js';
import { StatusError, isStatusError } from './status-error.js';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

describe('status error factories', () => {
  it('builds NotFound exactly as kube serves it', () => {
    const err = newNotFound(pods, 'foo');
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('pods "foo" not found');
    expect(err.code).toBe(404);
    expect(JSON.stringify(err.status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"foo\\" not found",' +
        '"reason":"NotFound","details":{"name":"foo","kind":"pods"},"code":404}',
    );
  });

  it('qualifies resources of named groups', () => {
    expect(newNotFound(deployments, 'x').status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', group: 'apps', kind: 'deployments' },
      code: 404,
    });
    expect(newAlreadyExists(deployments, 'x').status).toMatchObject({
      message: 'deployments.apps "x" already exists',
      reason: 'AlreadyExists',
      code: 409,
    });
  });

  it('builds Conflict with the cause text', () => {
    const err = newConflict(pods, 'x', new Error('the object has been modified; please apply your changes to the latest version and try again'));
    expect(err.status.message).toBe(
      'Operation cannot be fulfilled on pods "x": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(err.status.reason).toBe('Conflict');
    expect(err.status.code).toBe(409);
  });

  it('builds Forbidden for named, unnamed and resource-less requests', () => {
    expect(newForbidden(pods, 'x', 'User "bob" cannot get resource "pods"').message).toBe(
      'pods "x" is forbidden: User "bob" cannot get resource "pods"',
    );
    expect(newForbidden(deployments, '', new Error('nope')).message).toBe('deployments.apps is forbidden: nope');
    expect(newForbidden({ group: '', resource: '' }, '', 'nope').status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'forbidden: nope', reason: 'Forbidden', details: {}, code: 403,
    });
  });

  it('builds Invalid with one error', () => {
    const err = newInvalid({ group: '', kind: 'Pod' }, 'x', [
      { type: 'FieldValueRequired', field: 'spec.containers', message: '' },
    ]);
    expect(err.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Pod "x" is invalid: spec.containers: Required value',
      reason: 'Invalid',
      details: {
        name: 'x', kind: 'Pod',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }],
      },
      code: 422,
    });
  });

  it('builds Invalid with several errors as kube aggregates them', () => {
    const err = newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', [
      { type: 'FieldValueInvalid', field: 'metadata.name', badValue: 'Web', message: 'must be lowercase' },
      { type: 'FieldValueNotSupported', field: 'spec.strategy.type', badValue: 'Fast', message: 'supported values: "Recreate", "RollingUpdate"' },
      { type: 'FieldValueInvalid', field: 'spec.replicas', badValue: -1, message: 'must be greater than or equal to 0' },
      { type: 'FieldValueForbidden', field: 'spec.foo', message: 'field not declared in schema' },
    ]);
    expect(err.message).toBe(
      'Deployment.apps "web" is invalid: [metadata.name: Invalid value: "Web": must be lowercase, ' +
        'spec.strategy.type: Unsupported value: "Fast": supported values: "Recreate", "RollingUpdate", ' +
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0, ' +
        'spec.foo: Forbidden: field not declared in schema]',
    );
    expect(err.status.details).toEqual({
      name: 'web', group: 'apps', kind: 'Deployment',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Web": must be lowercase', field: 'metadata.name' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Fast": supported values: "Recreate", "RollingUpdate"', field: 'spec.strategy.type' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' },
        { reason: 'FieldValueForbidden', message: 'Forbidden: field not declared in schema', field: 'spec.foo' },
      ],
    });
  });

  it('builds Invalid without errors', () => {
    expect(newInvalid({ group: '', kind: 'Pod' }, 'x', []).message).toBe('Pod "x" is invalid');
  });

  it('builds the simple reasons with kube codes and messages', () => {
    const cases: [StatusError, number, string, string][] = [
      [newBadRequest('bad'), 400, 'BadRequest', 'bad'],
      [newUnauthorized(), 401, 'Unauthorized', 'not authorized'],
      [newUnauthorized('Unauthorized'), 401, 'Unauthorized', 'Unauthorized'],
      [newMethodNotSupported(pods, 'watch'), 405, 'MethodNotAllowed', 'watch is not supported on resources of kind "pods"'],
      [newNotAcceptable(['application/json', 'application/yaml']), 406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml'],
      [newGone('gone'), 410, 'Gone', 'gone'],
      [newResourceExpired('too old resource version: 1 (5)'), 410, 'Expired', 'too old resource version: 1 (5)'],
      [newRequestEntityTooLarge('limit is 3145728'), 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'],
      [newUnsupportedMediaType(['application/json']), 415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json'],
      [newTooManyRequests('slow down', 1), 429, 'TooManyRequests', 'slow down'],
      [newInternalError(new Error('boom')), 500, 'InternalError', 'Internal error occurred: boom'],
      [newServerTimeout(deployments, 'create', 2), 500, 'ServerTimeout', 'The create operation against deployments.apps could not be completed at this time, please try again.'],
      [newServiceUnavailable('etcd is down'), 503, 'ServiceUnavailable', 'etcd is down'],
      [newTimeout('request did not complete within 60s', 2), 504, 'Timeout', 'Timeout: request did not complete within 60s'],
    ];
    for (const [err, code, reason, message] of cases) {
      expect([err.status.code, err.status.reason, err.status.message]).toEqual([code, reason, message]);
    }
    expect(newInternalError(new Error('boom')).status.details).toEqual({ causes: [{ message: 'boom' }] });
    expect(newTooManyRequests('slow down', 1).status.details).toEqual({ retryAfterSeconds: 1 });
    expect(newServerTimeout(deployments, 'create', 2).status.details).toEqual({
      name: 'create', group: 'apps', kind: 'deployments', retryAfterSeconds: 2,
    });
    expect(newBadRequest('bad').status.details).toBeUndefined();
  });

  it('builds the too-large-resource-version timeout', () => {
    expect(newTooLargeResourceVersion(10, 7, 1).status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Timeout: Too large resource version: 10, current: 7',
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    });
  });

  it('is recognised by the predicates', () => {
    const err = newNotFound(pods, 'a');
    expect(isStatusError(err)).toBe(true);
    expect(isStatusError(new Error('x'))).toBe(false);
    expect(isNotFound(err)).toBe(true);
    expect(isConflict(err)).toBe(false);
    expect(reasonForError(new Error('x'))).toBe('');
  });
});
