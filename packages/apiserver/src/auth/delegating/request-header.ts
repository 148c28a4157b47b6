import type { UserInfo } from '../../admission/types.js';
import type { Authenticator } from '../types.js';
import { unauthorized } from '../authenticators.js';
import type { RequestHeaderConfig } from './authentication-config.js';
import { subjectOf, verifyClientChain } from './certificates.js';

/**
 * A header value as the front proxy meant it: its bytes read as UTF-8 (kube's proxies send user names as UTF-8;
 * node hands header bytes over one character per byte). Kept as read when the bytes are not UTF-8.
 */
export function utf8HeaderValue(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  const decoded = Buffer.from(value, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? value : decoded;
}

/** The values of a header as sent: Fetch joins repeated headers with `, `, which is split again here. */
function headerValues(headers: Headers, name: string): string[] {
  const joined = headers.get(name);
  if (joined === null) return [];
  return joined.split(', ').filter((v) => v.trim() !== '').map(utf8HeaderValue);
}

/** kube's unescapeExtraKey: the part of the header name after the prefix, percent-decoded (kept as is when invalid). */
function extraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/**
 * kube's request-header authenticator (front proxy, `--requestheader-*`): trusts `X-Remote-User`-style headers only
 * from a client whose certificate chains to the request-header CA and, when allowed names are set, whose CN is one
 * of them. The user is the first non-empty username header, the groups every value of the group headers, the extra
 * every `<prefix><key>` header (key lower-cased, then percent-decoded).
 *
 * A request without a client certificate gets no opinion, whatever headers it carries: they are ignored, and the
 * request authenticates by other means. A certificate that does not verify against the request-header CA, or whose
 * CN is not allowed, is a rejected credential (kube's x509 verifier errors), which a later authenticator can still
 * overrule (a client certificate of the client CA). `config()` is read on every request, so CA rotations apply at once.
 */
export function requestHeaderAuthenticator(config: () => RequestHeaderConfig | undefined): Authenticator {
  return ({ headers, peerCertificateChain }) => {
    const settings = config();
    if (!settings || !peerCertificateChain || peerCertificateChain.length === 0) return undefined;
    let leaf;
    try {
      leaf = verifyClientChain(peerCertificateChain, settings.ca);
    } catch {
      throw unauthorized();
    }
    if (settings.allowedNames.length > 0) {
      const { cn } = subjectOf(leaf);
      if (cn === undefined || !settings.allowedNames.includes(cn)) throw unauthorized();
    }
    let username: string | undefined;
    for (const name of settings.usernameHeaders) {
      username = headerValues(headers, name)[0];
      if (username) break;
    }
    if (!username) return undefined;
    const user: UserInfo = { username, groups: settings.groupHeaders.flatMap((name) => headerValues(headers, name)) };
    for (const name of settings.uidHeaders) {
      const uid = headerValues(headers, name)[0];
      if (uid) {
        user.uid = uid;
        break;
      }
    }
    const extra: Record<string, string[]> = {};
    const prefixes = settings.extraHeaderPrefixes.map((p) => p.toLowerCase());
    headers.forEach((value, headerName) => {
      const lower = headerName.toLowerCase();
      for (const prefix of prefixes) {
        if (!lower.startsWith(prefix)) continue;
        const key = extraKey(lower.slice(prefix.length));
        (extra[key] ??= []).push(...value.split(', ').map(utf8HeaderValue));
      }
    });
    if (Object.keys(extra).length > 0) user.extra = extra;
    return user;
  };
}
