import { formatFieldError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateClientConfig } from './client-config.js';
import { parseGoURL } from '@kapi/apimachinery';

const check = (clientConfig: unknown) => validateClientConfig('webhooks[0].clientConfig', clientConfig).map(formatFieldError);
const url = (u: string) => check({ url: u });
const FORM = '; desired format: https://host[/path]';

describe('webhook clientConfig.url (ValidateWebhookURL, forceHttps)', () => {
  it('accepts https URLs with a host, port and path', () => {
    expect(url('https://hook.example.com')).toEqual([]);
    expect(url('HTTPS://hook.example.com:8443/a/b')).toEqual([]);
    expect(url('https://[::1]:443/x')).toEqual([]);
    // an empty query or fragment is none (Go's ForceQuery / empty fragment)
    expect(url('https://h/?')).toEqual([]);
    expect(url('https://h/#')).toEqual([]);
  });

  it('refuses other schemes, a missing host, user information, fragments and queries', () => {
    expect(url('http://h')).toEqual([`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`]);
    expect(url('https:///path')).toEqual([`webhooks[0].clientConfig.url: Invalid value: "": host must be specified${FORM}`]);
    expect(url('https:opaque')).toEqual([`webhooks[0].clientConfig.url: Invalid value: "": host must be specified${FORM}`]);
    expect(url('')).toEqual([
      `webhooks[0].clientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${FORM}`,
      `webhooks[0].clientConfig.url: Invalid value: "": host must be specified${FORM}`,
    ]);
    expect(url('https://user:pw@h')).toEqual(['webhooks[0].clientConfig.url: Invalid value: "user:pw": user information is not permitted in the URL']);
    expect(url('https://h/p#frag')).toEqual(['webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL']);
    expect(url('https://h/p?a=b')).toEqual(['webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL']);
  });

  it('reports what Go cannot parse as Required, with url.Parse’s error', () => {
    expect(url('://x')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "://x": missing protocol scheme${FORM}`]);
    expect(url('https://h:port')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://h:port": invalid port ":port" after host${FORM}`]);
    expect(url('https://[::1')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://[::1": missing ']' in host${FORM}`]);
    expect(url('https://h/%zz')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://h/%zz": invalid URL escape "%zz"${FORM}`]);
    expect(url('https://h\n')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://h\\n": net/url: invalid control character in URL${FORM}`]);
    expect(url('https://a b')).toEqual([`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://a b": invalid character " " in host name${FORM}`]);
  });

  it('parses as Go does', () => {
    expect(parseGoURL('https://u@h:1/p?q#f')).toEqual({ scheme: 'https', user: 'u', host: 'h:1', rawQuery: 'q', fragment: 'f' });
    expect(parseGoURL('a:b/c')).toEqual({ scheme: 'a', host: '', rawQuery: '', fragment: '' });
    expect(parseGoURL('x/a:b')).toEqual({ scheme: '', host: '', rawQuery: '', fragment: '' });
    expect(parseGoURL('a:b')).toEqual({ scheme: 'a', host: '', rawQuery: '', fragment: '' });
    expect(parseGoURL('1a:b')).toEqual({ error: 'parse "1a:b": first path segment in URL cannot contain colon' });
  });
});

describe('webhook clientConfig.service (ValidateWebhookService)', () => {
  const service = (s: Record<string, unknown>) => check({ service: { namespace: 'ns', name: 'svc', ...s } });

  it('accepts a service with or without path and port', () => {
    expect(service({})).toEqual([]);
    expect(service({ path: '/', port: 1 })).toEqual([]);
    expect(service({ path: '', port: 65535 })).toEqual([]);
    expect(service({ path: '/a/b.c/' })).toEqual([]);
  });

  it('reports a missing name at `namespace` and a missing namespace at `name`, as kube does (swapped arguments)', () => {
    expect(service({ name: '' })).toEqual(['webhooks[0].clientConfig.service.namespace: Required value: service namespace is required']);
    expect(service({ namespace: undefined })).toEqual(['webhooks[0].clientConfig.service.name: Required value: service name is required']);
  });

  it('port between 1 and 65535', () => {
    expect(service({ port: 0 })).toEqual(['webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive']);
    expect(service({ port: 70000 })).toEqual(['webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive']);
  });

  it('path: starts with `/`, segments non-empty RFC 1123 subdomains', () => {
    expect(service({ path: '//' })).toEqual(['webhooks[0].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty']);
    // kube drops the first character whatever it is: `a` leaves an empty segment too
    expect(service({ path: 'a' })).toEqual([
      'webhooks[0].clientConfig.service.path: Invalid value: "a": must start with a \'/\'',
      'webhooks[0].clientConfig.service.path: Invalid value: "a": segment[0] may not be empty',
    ]);
    expect(service({ path: '/a//b' })).toEqual(['webhooks[0].clientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty']);
    expect(service({ path: '/Upper' })[0]).toMatch(/^webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "\/Upper": segment\[0\]: a lowercase RFC 1123 subdomain/);
  });
});
