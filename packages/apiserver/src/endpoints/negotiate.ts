import { newNotAcceptable, newUnsupportedMediaType } from '@kapi/apimachinery';
import { CBOR_TYPE } from './cbor.js';

/** One entry of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

/** Parses a media type list (Accept, or a single Content-Type) into ranges sorted by preference. */
export function parseMediaTypes(header: string | null | undefined): MediaRange[] {
  if (!header) return [];
  const ranges = header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => {
      const [mime, ...rawParams] = part.split(';').map((s) => s.trim());
      const [type = '', subtype = ''] = mime.toLowerCase().split('/');
      const params: Record<string, string> = {};
      for (const p of rawParams) {
        const eq = p.indexOf('=');
        if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      delete params.q;
      return { type, subtype, params, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.q > 0);
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map(({ index: _i, ...r }) => r);
}

export type ResponseFormat =
  | { kind: 'json' }
  | { kind: 'yaml' }
  | { kind: 'protobuf' }
  | { kind: 'cbor' }
  | { kind: 'table'; version: 'v1' | 'v1beta1'; includeObject?: string };

const matches = (r: MediaRange, type: string, subtype: string) =>
  (r.type === type || r.type === '*') && (r.subtype === subtype || r.subtype === '*');

/**
 * Picks the response representation: the first acceptable of the client's preferences among JSON, YAML,
 * Protobuf (where the resource supports it) and, for reads, the Table form. No Accept means JSON; nothing
 * acceptable is 406.
 */
export function negotiateResponse(
  accept: string | null | undefined,
  options: { table: boolean; protobuf: boolean; cbor?: boolean },
): ResponseFormat {
  const ranges = parseMediaTypes(accept);
  if (ranges.length === 0) return { kind: 'json' };
  for (const r of ranges) {
    if (r.params.as) {
      const tableAsked = r.params.as === 'Table' && r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1');
      if (tableAsked && options.table && matches(r, 'application', 'json')) {
        return { kind: 'table', version: r.params.v as 'v1' | 'v1beta1' };
      }
      continue;
    }
    if (r.type === 'application' && r.subtype === 'json') return { kind: 'json' };
    if (r.type === 'application' && r.subtype === 'yaml') return { kind: 'yaml' };
    if (r.type === 'application' && r.subtype === 'vnd.kubernetes.protobuf' && options.protobuf) return { kind: 'protobuf' };
    if (r.type === 'application' && (r.subtype === 'cbor' || r.subtype === 'cbor-seq') && options.cbor) return { kind: 'cbor' };
    if (matches(r, 'application', 'json')) return { kind: 'json' };
  }
  throw newNotAcceptable([JSON_TYPE, YAML_TYPE, ...(options.protobuf ? [PROTOBUF_TYPE] : []), ...(options.cbor ? [CBOR_TYPE] : [])]);
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf' | 'cbor';

/**
 * The format of a request body from its Content-Type (none means JSON, as kube assumes); CBOR only with the
 * CBORServingAndStorage gate on; others are 415.
 */
export function requestBodyFormat(contentType: string | null | undefined, options: { cbor?: boolean } = {}): BodyFormat {
  const [range] = parseMediaTypes(contentType);
  if (!range || (range.type === 'application' && range.subtype === 'json')) return 'json';
  if (range.type === 'application' && range.subtype === 'yaml') return 'yaml';
  if (range.type === 'application' && range.subtype === 'vnd.kubernetes.protobuf') return 'protobuf';
  if (range.type === 'application' && range.subtype === 'cbor' && options.cbor) return 'cbor';
  throw newUnsupportedMediaType([JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE, ...(options.cbor ? [CBOR_TYPE] : [])]);
}
