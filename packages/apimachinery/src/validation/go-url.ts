// The parts of Go's net/url.Parse that webhook URL validation reads (scheme, host, user information, query and
// fragment) and the errors it reports, so a URL is refused for the same reasons, with the same words, as kube does.
import { goQuote } from '../errors/go-format.js';

export interface GoURL {
  scheme: string;
  /** The user information as written (Go re-escapes it; the written form is what a client sees in its own URL). */
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

class URLError extends Error {}

const isAlpha = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** getScheme: letters, then letters, digits, `+-.`, up to a `:`; none when another character comes first. */
function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (isAlpha(c)) continue;
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

const HOST_OK = /[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/;

/** unescape: `%XX` sequences must be complete; in a host, only host characters may appear unescaped. */
function unescape(s: string, host = false): string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2])) {
        const bad = s.slice(i, i + 3);
        throw new URLError(`invalid URL escape ${goQuote(bad)}`);
      }
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !HOST_OK.test(c)) {
      throw new URLError(`invalid character ${goQuote(c)} in host name`);
    }
  }
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const validOptionalPort = (port: string) => port === '' || /^:[0-9]*$/.test(port);

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${goQuote(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, true);
}

const USERINFO_OK = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parse(raw: string, url: GoURL): void {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new URLError('net/url: invalid control character in URL');
  if (raw === '*') return;
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) [rest, url.rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return; // an opaque URL (`https:host`): no host
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new URLError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    url.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!USERINFO_OK.test(userinfo)) throw new URLError('net/url: invalid userinfo');
      url.user = userinfo;
    }
  }
  unescape(rest);
}

/** url.Parse: the URL, or the error text Go's *url.Error gives (`parse "<url>": <reason>`). */
export function parseGoURL(rawURL: string): GoURL | { error: string } {
  const hash = rawURL.indexOf('#');
  const u = hash >= 0 ? rawURL.slice(0, hash) : rawURL;
  const frag = hash >= 0 ? rawURL.slice(hash + 1) : '';
  const url: GoURL = { scheme: '', host: '', rawQuery: '', fragment: '' };
  try {
    parse(u, url);
  } catch (err) {
    if (err instanceof URLError) return { error: `parse ${goQuote(u)}: ${err.message}` };
    throw err;
  }
  try {
    url.fragment = unescape(frag);
  } catch (err) {
    if (err instanceof URLError) return { error: `parse ${goQuote(rawURL)}: ${err.message}` };
    throw err;
  }
  return url;
}
