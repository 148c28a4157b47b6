// kube's URL library (library/urls.go): url(), isURL() and URL's getters. URLs are read as Go's url.ParseRequestURI
// reads them: an absolute URI (`scheme:...`) or an absolute path.
import { celFunc, celMethod, CelScalar, listType, mapType, type CelFunc, type CelValue } from '@bufbuild/cel';
import { URL_TYPE } from '../opaque.js';

const { STRING, BOOL } = CelScalar;
const U = URL_TYPE.celType;

interface ParsedURL {
  scheme: string;
  host: string;
  path: string;
  query: string;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s;

/** Go's url.ParseRequestURI, as far as rules use it; throws with Go's message. */
export function parseRequestURI(raw: string): ParsedURL {
  const fail = (why: string): never => {
    throw new Error(`parse ${JSON.stringify(raw)}: ${why}`);
  };
  if (/[\x00-\x1f\x7f]/.test(raw)) fail('net/url: invalid control character in URL');
  let rest = raw;
  let scheme = '';
  if (!rest.startsWith('/')) {
    const m = SCHEME.exec(rest);
    if (!m) fail('invalid URI for request');
    scheme = m![1].toLowerCase();
    rest = m![2];
  }
  const q = rest.indexOf('?');
  const query = q >= 0 ? rest.slice(q + 1) : '';
  if (q >= 0) rest = rest.slice(0, q);
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0];
    rest = rest.slice(2 + authority.length);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    if (/[\s<>"{}|\\^`]/.test(host)) fail(`invalid character ${JSON.stringify(host.match(/[\s<>"{}|\\^`]/)![0])} in host name`);
    const port = host.startsWith('[') ? host.slice(host.indexOf(']') + 1) : host.slice(host.lastIndexOf(':') >= 0 ? host.lastIndexOf(':') : host.length);
    if (port !== '' && !/^:\d*$/.test(port)) fail(`invalid port ${JSON.stringify(port)} after host`);
  } else if (scheme !== '' && !rest.startsWith('/') && rest === '') {
    fail('invalid URI for request');
  }
  return { scheme, host, path: rest, query };
}

const read = (v: CelValue): ParsedURL => parseRequestURI(URL_TYPE.text(v));

function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

function port(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':') >= 0 ? host.lastIndexOf(':') : host.length;
  return host.slice(end).replace(/^:/, '');
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = decode(eq >= 0 ? part.slice(0, eq) : part);
    const v = decode(eq >= 0 ? part.slice(eq + 1) : '');
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

/** The URL library. */
export const urlsLibrary: CelFunc[] = [
  celFunc('url', [STRING], U, (s) => {
    try {
      parseRequestURI(s);
    } catch (e) {
      throw new Error(`URL parse error during conversion from string: ${(e as Error).message}`);
    }
    return URL_TYPE.make(s);
  }),
  celFunc('isURL', [STRING], BOOL, (s) => {
    try {
      parseRequestURI(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('getScheme', U, [], STRING, function () {
    return read(this).scheme;
  }),
  celMethod('getHost', U, [], STRING, function () {
    return read(this).host;
  }),
  celMethod('getHostname', U, [], STRING, function () {
    return hostname(read(this).host);
  }),
  celMethod('getPort', U, [], STRING, function () {
    return port(read(this).host);
  }),
  celMethod('getEscapedPath', U, [], STRING, function () {
    return read(this).path;
  }),
  celMethod('getQuery', U, [], mapType(STRING, listType(STRING)), function () {
    return query(read(this).query);
  }),
];
