import { describe, expect, it } from 'vitest';
import { answerHeaders, escapeExtraKey, proxiedRequestHeaders } from './headers.js';

describe('proxied request headers', () => {
  it('carries the user in front-proxy headers and drops every client credential and hop-by-hop header', () => {
    const headers = new Headers({
      authorization: 'Bearer secret',
      'impersonate-user': 'root',
      'x-remote-user': 'mallory',
      'X-Remote-Extra-Scopes': 'all',
      connection: 'keep-alive',
      host: 'front.example',
      accept: 'application/json',
    });
    const out = proxiedRequestHeaders(headers, { username: 'alice', groups: ['devs', 'bad\nvalue'], extra: { 'example.com/Scope key': ['a', 'b'] } });
    expect(out).toEqual({
      accept: 'application/json',
      'x-remote-user': 'alice',
      'x-remote-group': ['devs'],
      'x-remote-extra-example.com%2FScope%20key': ['a', 'b'],
    });
  });

  it("escapes extra keys as client-go's headerKeyEscape: unreserved characters stay, other bytes are %XX", () => {
    expect(escapeExtraKey('authentication.kubernetes.io/pod-name')).toBe('authentication.kubernetes.io%2Fpod-name');
    expect(escapeExtraKey('a~b_c-d.e')).toBe('a~b_c-d.e');
    expect(escapeExtraKey('ü')).toBe('%C3%BC');
  });

  it('passes answer headers on, repeated ones kept, hop-by-hop ones dropped', () => {
    const out = answerHeaders({ 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'transfer-encoding': 'chunked', connection: 'close' });
    expect([...out.entries()]).toEqual([
      ['content-type', 'application/json'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });
});
