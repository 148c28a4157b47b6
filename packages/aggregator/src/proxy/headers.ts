// The headers of a proxied request and of its answer, as kube-aggregator's proxy and client-go's auth proxy
// round tripper set them.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '@kapi/apiserver';

/** Hop-by-hop headers (RFC 7230 §6.1), which a proxy never forwards. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Whether a client header stays off the proxied request: hop-by-hop ones, `Host`, and every credential: the
 * client's own (`Authorization`, which kube's authentication filter removes once it is checked), impersonation
 * (already applied: the user forwarded is the impersonated one) and front-proxy headers a client might forge.
 */
function dropped(name: string): boolean {
  return HOP_BY_HOP.has(name) || name === 'host' || name === 'authorization' || name.startsWith('impersonate-') || name.startsWith('x-remote-');
}

/** RFC 3986 unreserved characters stay; every other byte is %-encoded (client-go's headerKeyEscape). */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Control characters (tab aside): no header value may carry them. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * A value as its UTF-8 bytes, one character per byte, which is how node writes a header value byte for byte (kube's
 * proxy sends user names as UTF-8); undefined for a value no header can carry.
 */
export function headerBytes(value: string): string | undefined {
  if (CONTROL.test(value)) return undefined;
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** The headers the client's `Connection` header names: hop-by-hop for this request only (RFC 7230 §6.1). */
function connectionListed(headers: Headers): Set<string> {
  const listed = headers.get('connection') ?? '';
  return new Set(listed.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
}

/**
 * The headers sent to the extension: the client's, less the dropped ones, with the authenticated user in kube's
 * front-proxy headers (X-Remote-User, one X-Remote-Group per group, X-Remote-Extra-<escaped key> per value), as
 * UTF-8. Throws when the user name cannot be put in a header (a control character); groups and extra values that
 * cannot are left out.
 */
export function proxiedRequestHeaders(headers: Headers, user: UserInfo): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const perRequest = connectionListed(headers);
  headers.forEach((value, name) => {
    if (!dropped(name) && !perRequest.has(name)) out[name] = value;
  });
  const username = headerBytes(user.username);
  if (username === undefined) throw new Error('the user name cannot be sent in a request header');
  out['x-remote-user'] = username;
  const groups = (user.groups ?? []).map(headerBytes).filter((g): g is string => g !== undefined);
  if (groups.length) out['x-remote-group'] = groups;
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    const sendable = values.map(headerBytes).filter((v): v is string => v !== undefined);
    if (sendable.length) out[`x-remote-extra-${escapeExtraKey(key)}`] = sendable;
  }
  return out;
}

/**
 * The extension's answer headers as the client gets them: hop-by-hop ones left out, and `Audit-ID`, which is the
 * main server's to set (one ID per request, the one its audit log records).
 */
export function answerHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'audit-id') continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}
