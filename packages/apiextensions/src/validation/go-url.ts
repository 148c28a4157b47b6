// The parts of Go's net/url.Parse that kube's webhook URL check reads: scheme, host, user, query, fragment, and
// Parse's errors for the inputs it rejects (control characters, missing scheme, bad port, bad escapes).
import { goQuote } from '@kapi/apimachinery';

export interface GoURL {
  scheme: string;
  host: string;
  /** The userinfo before `@` in the authority, or undefined when there is none. */
  user?: string;
  rawQuery: string;
  fragment: string;
}

const fail = (raw: string, msg: string): string => `parse ${goQuote(raw)}: ${msg}`;

function unescapeError(s: string): string | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '%') continue;
    const hex = s.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return `invalid URL escape ${goQuote(s.slice(i, i + 3))}`;
    i += 2;
  }
  return undefined;
}

const unescape = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** url.Parse: the parsed URL, or Go's error text (`parse "<url>": <reason>`). */
export function goParseURL(raw: string): GoURL | string {
  let rest = raw;
  let fragment = '';
  const hash = raw.indexOf('#');
  if (hash >= 0) {
    rest = raw.slice(0, hash);
    fragment = raw.slice(hash + 1);
  }
  if (/[\x00-\x1f\x7f]/.test(rest)) return fail(raw, 'net/url: invalid control character in URL');
  const url: GoURL = { scheme: '', host: '', rawQuery: '', fragment: '' };
  // getScheme
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return fail(raw, 'missing protocol scheme');
      url.scheme = rest.slice(0, i).toLowerCase();
      rest = rest.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return withFragment(raw, url, fragment); // opaque: no host
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) return fail(raw, 'first path segment in URL cannot contain colon');
  }
  if (rest.startsWith('//') && !rest.startsWith('///')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    let host = authority;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/.test(userinfo)) return fail(raw, 'net/url: invalid userinfo');
      url.user = userinfo;
      host = authority.slice(at + 1);
    }
    const hostErr = parseHost(host);
    if (hostErr) return fail(raw, hostErr);
    url.host = unescape(host);
  }
  return withFragment(raw, url, fragment);
}

function parseHost(host: string): string | undefined {
  let port = '';
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return 'missing \']\' in host';
    port = host.slice(close + 1);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) port = host.slice(colon);
  }
  if (port !== '' && !/^:[0-9]*$/.test(port)) return `invalid port ${goQuote(port)} after host`;
  return unescapeError(host);
}

function withFragment(raw: string, url: GoURL, fragment: string): GoURL | string {
  const err = unescapeError(fragment);
  if (err) return fail(raw, err);
  url.fragment = unescape(fragment);
  return url;
}
