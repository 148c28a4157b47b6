import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kapi/apimachinery';
import { negotiateResponse, parseMediaTypes, requestBodyFormat } from './negotiate.js';

const opts = { table: true, protobuf: true };

describe('negotiation', () => {
  it('orders Accept ranges by q, then by position', () => {
    expect(parseMediaTypes('a/b;q=0.5, c/d, e/f;q=0').map((r) => `${r.type}/${r.subtype}`)).toEqual(['c/d', 'a/b']);
  });

  it("answers kubectl's Table-then-JSON Accept with a v1 Table", () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    expect(negotiateResponse(accept, opts)).toEqual({ kind: 'table', version: 'v1' });
    expect(negotiateResponse(accept, { ...opts, table: false })).toEqual({ kind: 'json' });
  });

  it('serves JSON, YAML and Protobuf, JSON by default and for wildcards', () => {
    expect(negotiateResponse(undefined, opts)).toEqual({ kind: 'json' });
    expect(negotiateResponse('*/*', opts)).toEqual({ kind: 'json' });
    expect(negotiateResponse('application/yaml', opts)).toEqual({ kind: 'yaml' });
    expect(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', opts)).toEqual({ kind: 'protobuf' });
    expect(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', { ...opts, protobuf: false })).toEqual({ kind: 'json' });
  });

  it('refuses what it cannot serve with 406', () => {
    try {
      negotiateResponse('text/html', opts);
      expect.unreachable();
    } catch (err) {
      expect(isStatusError(err) && err.status.code).toBe(406);
    }
  });

  it('reads request body formats and refuses others with 415', () => {
    expect(requestBodyFormat(undefined)).toBe('json');
    expect(requestBodyFormat('application/json; charset=utf-8')).toBe('json');
    expect(requestBodyFormat('application/yaml')).toBe('yaml');
    expect(requestBodyFormat('application/vnd.kubernetes.protobuf')).toBe('protobuf');
    expect(() => requestBodyFormat('text/plain')).toThrow(/unknown format/);
  });
});
