import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kapi/apimachinery';
import { MEDIA_TYPES, offeredMediaTypes } from './media/index.js';
import { negotiateResponse, parseMediaTypes, requestBodyFormat } from './negotiate.js';

const opts = { table: true };
const offered = offeredMediaTypes();
const withCbor = offeredMediaTypes({ CBORServingAndStorage: true });
const jsonOnly = [MEDIA_TYPES.json];

describe('negotiation', () => {
  it('orders Accept ranges by q, then by position', () => {
    expect(parseMediaTypes('a/b;q=0.5, c/d, e/f;q=0').map((r) => `${r.type}/${r.subtype}`)).toEqual(['c/d', 'a/b']);
  });

  it("answers kubectl's Table-then-JSON Accept with a v1 Table", () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    expect(negotiateResponse(accept, offered, opts)).toEqual({ kind: 'json', as: { kind: 'Table', version: 'v1' } });
    expect(negotiateResponse(accept, offered, { table: false })).toEqual({ kind: 'json' });
  });

  it('serves JSON, YAML and Protobuf, JSON by default and for wildcards', () => {
    expect(negotiateResponse(undefined, offered, opts)).toEqual({ kind: 'json' });
    expect(negotiateResponse('*/*', offered, opts)).toEqual({ kind: 'json' });
    expect(negotiateResponse('application/yaml', offered, opts)).toEqual({ kind: 'yaml' });
    expect(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', offered, opts)).toEqual({ kind: 'protobuf' });
    expect(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', jsonOnly, opts)).toEqual({ kind: 'json' });
  });

  it('refuses what it cannot serve with 406', () => {
    try {
      negotiateResponse('text/html', offered, opts);
      expect.unreachable();
    } catch (err) {
      expect(isStatusError(err) && err.status.code).toBe(406);
    }
  });

  it('reads request body formats and refuses others with 415', () => {
    expect(requestBodyFormat(undefined, offered)).toBe('json');
    expect(requestBodyFormat('application/json; charset=utf-8', offered)).toBe('json');
    expect(requestBodyFormat('application/yaml', offered)).toBe('yaml');
    expect(requestBodyFormat('application/vnd.kubernetes.protobuf', offered)).toBe('protobuf');
    expect(() => requestBodyFormat('text/plain', offered)).toThrow(/unknown format/);
  });

  it('offers CBOR only when the server registers it (the CBORServingAndStorage gate)', () => {
    expect(() => requestBodyFormat('application/cbor', offered)).toThrow(/unknown format/);
    expect(requestBodyFormat('application/cbor', withCbor)).toBe('cbor');
    expect(() => requestBodyFormat('application/cbor-seq', withCbor)).toThrow(/unknown format/);
    expect(negotiateResponse('application/cbor', withCbor, opts)).toEqual({ kind: 'cbor' });
    expect(negotiateResponse('application/cbor-seq', withCbor, opts)).toEqual({ kind: 'cbor' });
    expect(() => negotiateResponse('application/cbor', offered, opts)).toThrow("only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf");
  });
});
