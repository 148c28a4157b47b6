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

/** A value node can send in a header (no control characters but tab). */
const sendable = (value: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);

/**
 * The headers sent to the extension: the client's, less the dropped ones, with the authenticated user in kube's
 * front-proxy headers (X-Remote-User, one X-Remote-Group per group, X-Remote-Extra-<escaped key> per value).
 */
export function proxiedRequestHeaders(headers: Headers, user: UserInfo): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (!dropped(name)) out[name] = value;
  });
  out['x-remote-user'] = user.username;
  const groups = (user.groups ?? []).filter(sendable);
  if (groups.length) out['x-remote-group'] = groups;
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    const sendableValues = values.filter(sendable);
    if (sendableValues.length) out[`x-remote-extra-${escapeExtraKey(key)}`] = sendableValues;
  }
  return out;
}

/** The extension's answer headers as the client gets them, hop-by-hop ones left out. */
export function answerHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}
