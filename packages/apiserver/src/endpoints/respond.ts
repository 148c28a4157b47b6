import { isStatusError, toStatus, type KubeObject } from '@kapi/apimachinery';
import { auditResponseObject } from '../audit/context.js';
import { isRecordableWarning, WARNING_TOTAL_RUNES } from '../registry/context.js';
import { MEDIA_TYPES, type EncodeOptions } from './media/index.js';
import { metaCodec, STATUS_MESSAGE } from './media/meta.js';
import type { ResponseFormat } from './negotiate.js';
import type { LogSink } from '../logging/types.js';
import { withLength } from './response-end.js';

export { metaCodec, STATUS_MESSAGE } from './media/meta.js';

export interface Rendered {
  body: string | Uint8Array;
  contentType: string;
}

/**
 * Serializes a response body in the negotiated media type (a Table is rendered before, by the handler, and
 * written as JSON). Protobuf needs the kind's message and falls back to JSON without one.
 */
export function render(value: KubeObject, format: ResponseFormat, options: EncodeOptions = {}): Rendered {
  auditResponseObject(value);
  const media = MEDIA_TYPES[format.kind];
  const fallback = media.name === 'protobuf' && !options.protobuf ? MEDIA_TYPES.json : media;
  return { body: fallback.encode(value, options), contentType: fallback.contentType };
}

/** The byte length of a rendered body (the request metrics' response size). */
const lengthOf = (body: string | Uint8Array) => (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

export function response(rendered: Rendered, status: number, headers: Record<string, string> = {}): Response {
  const res = new Response(rendered.body as ConstructorParameters<typeof Response>[0], { status, headers: { 'Content-Type': rendered.contentType, ...headers } });
  return withLength(res, lengthOf(rendered.body));
}

/**
 * Node's error for a request whose client closed the connection before its body was read whole (kube reads an
 * unexpected EOF there): logged as kube logs it, without a stack, since nothing in the server went wrong.
 */
const clientGone = (err: unknown) => err instanceof Error && err.message === 'aborted' && (err as NodeJS.ErrnoException).code === 'ECONNRESET';

/**
 * Every failure a client sees: a kube Status with the Status' code, never a stack trace; in the client's
 * negotiated format when it has one (JSON otherwise, and for Table requests).
 */
export function errorResponse(err: unknown, log?: LogSink, format?: ResponseFormat): Response {
  const status = toStatus(err);
  if (!isStatusError(err)) log?.(0, 'Internal error', { err: clientGone(err) ? `${(err as Error).message}: the client closed the connection while sending the request` : ((err as Error)?.stack ?? String(err)) });
  // A 406 is written as JSON, as kube writes a Status it could not negotiate (a Protobuf request for a custom resource:
  // the media type the client asked for is the one the resource does not have).
  const as: ResponseFormat = { kind: Number(status.code) === 406 ? 'json' : (format?.kind ?? 'json') };
  const rendered = render(status as unknown as KubeObject, as, { protobuf: { codec: metaCodec(), message: STATUS_MESSAGE } });
  const headers: Record<string, string> = { 'Content-Type': rendered.contentType };
  const retryAfter = (status.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  if (retryAfter && (status.code === 429 || status.code === 504 || status.code === 503)) headers['Retry-After'] = String(retryAfter);
  return withLength(new Response(rendered.body as ConstructorParameters<typeof Response>[0], { status: Number(status.code) || 500, headers }), lengthOf(rendered.body));
}

const utf8 = new TextEncoder();

/**
 * A header value as the bytes Go's net/http writes for a Go string: its UTF-8, one character per byte (a Fetch
 * header value is a ByteString, which Node writes as latin1). A character past U+00FF would make `Headers` throw,
 * and a Latin-1 one would go out as a byte that is not UTF-8.
 */
export function utf8HeaderValue(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = '';
  for (const byte of utf8.encode(text)) out += String.fromCharCode(byte);
  return out;
}

/** kube's warning recorder limits (endpoints/filters/warning.go): all warnings' text, and each one once over it. */
const WARNING_ITEM_RUNES = 256;

/**
 * The warnings kube's recorder would write, in order: empty ones and those with control characters dropped (kube's
 * NewWarningHeader refuses them); once their text passes 4,096 characters, each is cut to 256 characters and those
 * past the 4,096 left out, so a webhook's or strategy's warnings never make a header clients cannot read.
 */
export function recordedWarnings(warnings: readonly string[]): string[] {
  const valid = warnings.filter(isRecordableWarning);
  const runes = (w: string) => [...w].length;
  if (valid.reduce((n, w) => n + runes(w), 0) <= WARNING_TOTAL_RUNES) return valid;
  // As the recorder: the warning that passes the limit and all before it are written again cut to 256 characters;
  // later ones, cut too, while fewer than 4,096 characters are written.
  const out: string[] = [];
  let written = 0;
  let truncating = false;
  for (const w of valid) {
    if (truncating && written >= WARNING_TOTAL_RUNES) break;
    if (!truncating && written + runes(w) > WARNING_TOTAL_RUNES) {
      truncating = true;
      written = 0;
      for (const earlier of out.splice(0)) {
        const cut = [...earlier].slice(0, WARNING_ITEM_RUNES);
        written += cut.length;
        out.push(cut.join(''));
      }
    }
    const chars = [...w];
    const text = truncating && chars.length > WARNING_ITEM_RUNES ? chars.slice(0, WARNING_ITEM_RUNES).join('') : w;
    written += truncating ? Math.min(chars.length, WARNING_ITEM_RUNES) : chars.length;
    out.push(text);
  }
  return out;
}

/**
 * The `Warning` header value kube sends: one `299 - "<text>"` item per warning kube's recorder keeps
 * (recordedWarnings), the text in UTF-8 (warnings quote what clients sent, such as unknown field names, in any
 * script).
 */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  const kept = recordedWarnings(warnings);
  if (!kept.length) return {};
  return { Warning: utf8HeaderValue(kept.map((w) => `299 - ${JSON.stringify(w)}`).join(', ')) };
}
