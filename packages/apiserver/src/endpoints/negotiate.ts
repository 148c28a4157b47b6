import { newNotAcceptable, newUnsupportedMediaType } from '@kapi/apimachinery';
import type { MediaName, MediaType } from './media/index.js';

/** One entry of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}


/** Header values parsed lately: clients send the same few Accept and Content-Type values again and again. */
const parsed = new Map<string, readonly MediaRange[]>();
const KEPT_HEADERS = 256;
const KEPT_HEADER_LENGTH = 1024;

/** Parses a media type list (Accept, or a single Content-Type) into ranges sorted by preference (frozen, shared). */
export function parseMediaTypes(header: string | null | undefined): readonly MediaRange[] {
  if (!header) return [];
  let ranges = parsed.get(header);
  if (ranges) return ranges;
  ranges = Object.freeze(parseRanges(header).map((r) => Object.freeze({ ...r, params: Object.freeze(r.params) })));
  if (header.length <= KEPT_HEADER_LENGTH) {
    // Bounded whatever clients send: a full table starts over.
    if (parsed.size >= KEPT_HEADERS) parsed.clear();
    parsed.set(header, ranges);
  }
  return ranges;
}

function parseRanges(header: string): MediaRange[] {
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

/**
 * A conversion of the response chosen by negotiation (`as=...;g=meta.k8s.io;v=...` in Accept): a Table, or the
 * metadata-only PartialObjectMetadata form (PartialObjectMetadataList for lists).
 */
export interface Conversion {
  kind: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  version: 'v1' | 'v1beta1';
}

/** The response representation: a media type, and the conversion of the object asked for, if any. */
export interface ResponseFormat {
  kind: MediaName;
  as?: Conversion;
}

/** Which conversions a request may be answered with (kube: Table on reads; metadata on get, list and watch). */
export interface ConversionOptions {
  table: boolean;
  /** `object` for get and watch (PartialObjectMetadata), `list` for lists (PartialObjectMetadataList). */
  metadata?: 'object' | 'list';
}

const matches = (r: MediaRange, type: string, subtype: string) =>
  (r.type === type || r.type === '*') && (r.subtype === subtype || r.subtype === '*');

const offeredFor = (offered: readonly MediaType[], name: string, pick: (m: MediaType) => string[]) =>
  offered.find((m) => pick(m).includes(name));

/** The conversion an `as=` media range asks for, when this request may be answered with it in that media type. */
function conversionOf(r: MediaRange, media: MediaType | undefined, options: ConversionOptions): Conversion | undefined {
  const { as, g, v } = r.params;
  if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1') || !media) return undefined;
  if (as === 'Table') return options.table && media.name === 'json' ? { kind: 'Table', version: v } : undefined;
  const metadata = options.metadata === 'list' ? 'PartialObjectMetadataList' : options.metadata === 'object' ? 'PartialObjectMetadata' : undefined;
  // Protobuf carries the v1 messages only.
  if (!metadata || as !== metadata || (media.name === 'protobuf' && v !== 'v1') || media.name === 'cbor') return undefined;
  return { kind: metadata, version: v };
}

/**
 * Picks the response representation: the first acceptable of the client's preferences among the media types the
 * server offers and, where the request allows them, the Table and metadata-only conversions. No Accept means JSON;
 * a wildcard means JSON; nothing acceptable is 406 naming what is offered.
 */
export function negotiateResponse(
  accept: string | null | undefined,
  offered: readonly MediaType[],
  options: ConversionOptions,
): ResponseFormat {
  const ranges = parseMediaTypes(accept);
  if (ranges.length === 0) return { kind: 'json' };
  for (const r of ranges) {
    const media = offeredFor(offered, `${r.type}/${r.subtype}`, (m) => m.accepts) ?? (matches(r, 'application', 'json') ? offered.find((m) => m.name === 'json') : undefined);
    if (r.params.as) {
      const as = conversionOf(r, media, options);
      if (as) return { kind: media!.name, as };
      continue;
    }
    if (media) return { kind: media.name };
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
