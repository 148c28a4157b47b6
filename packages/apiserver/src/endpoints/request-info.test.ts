import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './request-info.js';

const info = (method: string, path: string) => {
  const url = new URL(path, 'http://x');
  return parseRequestInfo(method, url.pathname, url.searchParams);
};

describe('parseRequestInfo', () => {
  it('reads core and group paths, namespaced and cluster-scoped', () => {
    expect(info('GET', '/api/v1/namespaces/default/pods')).toEqual({
      verb: 'list', group: '', version: 'v1', namespace: 'default', resource: 'pods', subresource: '', name: '',
    });
    expect(info('GET', '/apis/apps/v1/namespaces/ns/deployments/web/scale')).toMatchObject({
      verb: 'get', group: 'apps', namespace: 'ns', resource: 'deployments', name: 'web', subresource: 'scale',
    });
    expect(info('GET', '/api/v1/pods')).toMatchObject({ verb: 'list', namespace: '', resource: 'pods' });
    expect(info('GET', '/api/v1/nodes/n1')).toMatchObject({ verb: 'get', resource: 'nodes', name: 'n1' });
  });

  it('treats namespaces as a resource, with their status and finalize subresources', () => {
    expect(info('GET', '/api/v1/namespaces')).toMatchObject({ verb: 'list', resource: 'namespaces', name: '' });
    expect(info('DELETE', '/api/v1/namespaces/team')).toMatchObject({ verb: 'delete', resource: 'namespaces', name: 'team' });
    expect(info('PUT', '/api/v1/namespaces/team/finalize')).toMatchObject({
      verb: 'update', resource: 'namespaces', name: 'team', subresource: 'finalize',
    });
  });

  it('derives the verb from method, collection and watch', () => {
    expect(info('GET', '/api/v1/namespaces/a/configmaps?watch=1')!.verb).toBe('watch');
    expect(info('GET', '/api/v1/namespaces/a/configmaps?watch=true')!.verb).toBe('watch');
    expect(info('POST', '/api/v1/namespaces/a/configmaps')!.verb).toBe('create');
    expect(info('PUT', '/api/v1/namespaces/a/configmaps/b')!.verb).toBe('update');
    expect(info('PATCH', '/api/v1/namespaces/a/configmaps/b')!.verb).toBe('patch');
    expect(info('DELETE', '/api/v1/namespaces/a/configmaps')!.verb).toBe('deletecollection');
  });

  it('is undefined for discovery and unknown paths', () => {
    expect(info('GET', '/api/v1')).toBeUndefined();
    expect(info('GET', '/apis/apps/v1')).toBeUndefined();
    expect(info('GET', '/healthz')).toBeUndefined();
    expect(info('GET', '/api/v1/namespaces/a/pods/b/log/extra')).toBeUndefined();
  });
});
