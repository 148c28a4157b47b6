import {
  createMessageCodec,
  encodeProtobufObject,
  isStatusError,
  metaDescriptor,
  toStatus,
  type KubeObject,
  type MessageCodec,
} from '@kapi/apimachinery';
import { stringify as toYaml } from 'yaml';
import { CBOR_TYPE, encodeCbor } from './cbor.js';
import { JSON_TYPE, PROTOBUF_TYPE, YAML_TYPE, type ResponseFormat } from './negotiate.js';

export interface Rendered {
  body: string | Uint8Array;
  contentType: string;
}

/** Serializes a response body in the negotiated format (Table rendering happens before, in the handler). */
export function render(
  value: KubeObject,
  format: ResponseFormat,
  options: { pretty?: boolean; protobuf?: { codec: MessageCodec; message: string } } = {},
): Rendered {
  if (format.kind === 'yaml') return { body: toYaml(value), contentType: YAML_TYPE };
  if (format.kind === 'cbor') return { body: encodeCbor(value), contentType: CBOR_TYPE };
  if (format.kind === 'protobuf' && options.protobuf) {
    return {
      body: encodeProtobufObject(options.protobuf.codec, options.protobuf.message, value as Record<string, unknown>),
      contentType: PROTOBUF_TYPE,
    };
  }
  return { body: options.pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value), contentType: JSON_TYPE };
}

export function response(rendered: Rendered, status: number, headers: Record<string, string> = {}): Response {
  return new Response(rendered.body as ConstructorParameters<typeof Response>[0], { status, headers: { 'Content-Type': rendered.contentType, ...headers } });
}

export const STATUS_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.Status';
let statusCodec: MessageCodec | undefined;
/** The codec of meta.k8s.io/v1 messages (Status, WatchEvent), built on first use. */
export const metaCodec = (): MessageCodec => (statusCodec ??= createMessageCodec(metaDescriptor));

/**
 * Every failure a client sees: a kube Status with the Status' code, never a stack trace; in the client's
 * negotiated format when it has one (JSON otherwise, and for Table requests).
 */
export function errorResponse(err: unknown, log?: (level: number, message: string) => void, format?: ResponseFormat): Response {
  const status = toStatus(err);
  if (!isStatusError(err)) log?.(0, `internal error: ${(err as Error)?.stack ?? String(err)}`);
  const as: ResponseFormat = !format || format.kind === 'table' ? { kind: 'json' } : format;
  const rendered = render(status as unknown as KubeObject, as, { protobuf: { codec: metaCodec(), message: STATUS_MESSAGE } });
  const headers: Record<string, string> = { 'Content-Type': rendered.contentType };
  const retryAfter = (status.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  if (retryAfter && (status.code === 429 || status.code === 504 || status.code === 503)) headers['Retry-After'] = String(retryAfter);
  return new Response(rendered.body as ConstructorParameters<typeof Response>[0], { status: Number(status.code) || 500, headers });
}

/** The `Warning` header value kube sends: one `299 - "<text>"` item per warning. */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  if (!warnings.length) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}
