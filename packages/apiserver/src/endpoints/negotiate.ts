import { newNotAcceptable, newUnsupportedMediaType } from '@kapi/apimachinery';
import type { MediaName, MediaType } from './media/index.js';

/** One entry of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}


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
  | { kind: MediaName }
  | { kind: 'table'; version: 'v1' | 'v1beta1'; includeObject?: string };

const matches = (r: MediaRange, type: string, subtype: string) =>
  (r.type === type || r.type === '*') && (r.subtype === subtype || r.subtype === '*');

const offeredFor = (offered: readonly MediaType[], name: string, pick: (m: MediaType) => string[]) =>
  offered.find((m) => pick(m).includes(name));

/**
 * Picks the response representation: the first acceptable of the client's preferences among the media types the
 * server offers and, for reads, the Table form (a conversion of JSON chosen here). No Accept means JSON; a
 * wildcard means JSON; nothing acceptable is 406 naming what is offered.
 */
export function negotiateResponse(accept: string | null | undefined, offered: readonly MediaType[], options: { table: boolean }): ResponseFormat {
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
    const media = offeredFor(offered, `${r.type}/${r.subtype}`, (m) => m.accepts);
    if (media) return { kind: media.name };
    if (matches(r, 'application', 'json')) return { kind: 'json' };
  }
  throw newNotAcceptable(offered.map((m) => m.contentType));
}

export type BodyFormat = MediaName;

/**
 * The format of a request body from its Content-Type (none means JSON, as kube assumes), among the media types
 * the server offers; others are 415.
 */
export function requestBodyFormat(contentType: string | null | undefined, offered: readonly MediaType[]): BodyFormat {
  const [range] = parseMediaTypes(contentType);
  if (!range) return 'json';
  const media = offeredFor(offered, `${range.type}/${range.subtype}`, (m) => m.requestTypes);
  if (media) return media.name;
  throw newUnsupportedMediaType(offered.flatMap((m) => m.requestTypes));
}
