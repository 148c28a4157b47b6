import { describe, expect, it } from 'vitest';
import { requestAttributes } from './attributes.js';
import { parseRequestInfo, type RequestInfo } from '../endpoints/request-info.js';

const user = { username: 'u', groups: [] };
/** The attributes of a request, checked to be the same whether or not its RequestInfo is given (the filter gives it). */
const attrs = (method: string, target: string) => {
  const url = new URL(target, 'http://x');
  const { user: _user, ...rest } = requestAttributes(user, method, url.pathname, url.searchParams);
  let info: RequestInfo | undefined;
  try {
    info = parseRequestInfo(method, url.pathname, url.searchParams);
  } catch {
    info = undefined;
  }
  const { user: _again, ...fromInfo } = requestAttributes(user, method, url.pathname, url.searchParams, info);
  expect(fromInfo).toEqual(rest);
  return rest;
};
const res = (verb: string, apiGroup: string, apiVersion: string, namespace: string, resource: string, name = '', subresource = '') => ({
  verb, resourceRequest: true, apiGroup, apiVersion, namespace, resource, name, subresource,
});

describe('requestAttributes', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/pods', res('list', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/namespaces/ns/pods?watch=true', res('watch', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/namespaces/ns/pods?watch=1', res('watch', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/namespaces/ns/pods?watch=false', res('list', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/pods', res('list', '', 'v1', '', 'pods')],
    ['GET', '/api/v1/namespaces/ns/pods/p', res('get', '', 'v1', 'ns', 'pods', 'p')],
    ['HEAD', '/api/v1/namespaces/ns/pods/p', res('get', '', 'v1', 'ns', 'pods', 'p')],
    ['GET', '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dp&watch=true', res('watch', '', 'v1', 'ns', 'pods', 'p')],
    ['POST', '/api/v1/namespaces/ns/pods', res('create', '', 'v1', 'ns', 'pods')],
    ['PUT', '/api/v1/namespaces/ns/pods/p', res('update', '', 'v1', 'ns', 'pods', 'p')],
    ['PATCH', '/api/v1/namespaces/ns/pods/p', res('patch', '', 'v1', 'ns', 'pods', 'p')],
    ['DELETE', '/api/v1/namespaces/ns/pods/p', res('delete', '', 'v1', 'ns', 'pods', 'p')],
    ['DELETE', '/api/v1/namespaces/ns/pods', res('deletecollection', '', 'v1', 'ns', 'pods')],
    ['PUT', '/api/v1/namespaces/ns/pods/p/status', res('update', '', 'v1', 'ns', 'pods', 'p', 'status')],
    ['POST', '/api/v1/namespaces/ns/pods/p/eviction', res('create', '', 'v1', 'ns', 'pods', 'p', 'eviction')],
    ['GET', '/apis/apps/v1/namespaces/ns/deployments/d/scale', res('get', 'apps', 'v1', 'ns', 'deployments', 'd', 'scale')],
    ['GET', '/apis/apps/v1/deployments', res('list', 'apps', 'v1', '', 'deployments')],
    ['GET', '/apis/apps/v1/watch/namespaces/ns/deployments', res('watch', 'apps', 'v1', 'ns', 'deployments')],
    ['GET', '/api/v1/namespaces', res('list', '', 'v1', '', 'namespaces')],
    ['GET', '/api/v1/namespaces/ns', res('get', '', 'v1', 'ns', 'namespaces', 'ns')],
    ['PUT', '/api/v1/namespaces/ns/finalize', res('update', '', 'v1', 'ns', 'namespaces', 'ns', 'finalize')],
    ['DELETE', '/api/v1/namespaces/ns', res('delete', '', 'v1', 'ns', 'namespaces', 'ns')],
    ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', res('create', 'authorization.k8s.io', 'v1', '', 'selfsubjectaccessreviews')],
    // Paths where the RequestInfo reads other segments than kube's attributes: the attributes come from the path.
    ['GET', '/api/v1/watch/namespaces/ns/pods', res('watch', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/watch/pods', res('watch', '', 'v1', '', 'pods')],
    ['GET', '/api/v1/proxy/namespaces/ns/pods/p/x', res('proxy', '', 'v1', 'ns', 'pods', 'p')],
    ['GET', '/api/v1/namespaces/ns/pods/p?watch=true', res('get', '', 'v1', 'ns', 'pods', 'p')],
    ['GET', '/api/v1/namespaces/ns/pods/', res('list', '', 'v1', 'ns', 'pods')],
    ['GET', '/api/v1/namespaces/ns//pods', res('get', '', 'v1', 'ns', '', 'pods')],
  ])('%s %s', (method, target, expected) => {
    const url = new URL(target, 'http://x');
    expect(attrs(method, target)).toEqual({ ...expected, path: url.pathname });
  });

  it.each([
    ['GET', '/healthz', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/apis/apps/v1', 'get'],
    ['GET', '/openapi/v3/apis/apps/v1', 'get'],
    ['GET', '/version', 'get'],
    ['POST', '/foo', 'post'],
    ['PUT', '/foo', 'put'],
    ['PATCH', '/foo', 'patch'],
    ['DELETE', '/foo', 'delete'],
    ['HEAD', '/readyz', 'head'],
  ])('non-resource %s %s', (method, path, verb) => {
    expect(attrs(method, path)).toEqual({ verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', namespace: '', resource: '', name: '', subresource: '' });
  });
});
