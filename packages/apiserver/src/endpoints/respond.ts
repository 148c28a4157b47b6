import { encodeProtobufObject, isStatusError, toStatus, type KubeObject, type MessageCodec } from '@kapi/apimachinery';
import { stringify as toYaml } from 'yaml';
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

/** Every failure a client sees: a kube Status body (JSON) with the Status' code, never a stack trace. */
export function errorResponse(err: unknown, log?: (level: number, message: string) => void): Response {
  const status = toStatus(err);
  if (!isStatusError(err)) log?.(0, `internal error: ${(err as Error)?.stack ?? String(err)}`);
  const headers: Record<string, string> = { 'Content-Type': JSON_TYPE };
  const retryAfter = (status.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  if (retryAfter && (status.code === 429 || status.code === 504 || status.code === 503)) headers['Retry-After'] = String(retryAfter);
  return new Response(JSON.stringify(status), { status: Number(status.code) || 500, headers });
}

/** The `Warning` header value kube sends: one `299 - "<text>"` item per warning. */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  if (!warnings.length) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}
