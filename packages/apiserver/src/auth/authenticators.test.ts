import { isStatusError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, authenticate, parseTokenFile, tokenFileAuthenticator, x509Authenticator } from './authenticators.js';
import type { RequestCredentials } from './types.js';

const creds = (headers: Record<string, string> = {}, peerCertificate?: RequestCredentials['peerCertificate']): RequestCredentials => ({
  headers: new Headers(headers),
  peerCertificate,
});

async function status401(promise: Promise<unknown>) {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(isStatusError(err)).toBe(true);
  return (err as { status: Record<string, unknown> }).status;
}

describe('x509Authenticator', () => {
  const x509 = x509Authenticator();
  it('takes the user from CN and the groups from O', async () => {
    expect(await x509(creds({}, { subject: { CN: 'kapi-admin', O: 'system:masters' } }))).toEqual({ username: 'kapi-admin', groups: ['system:masters'] });
    expect(await x509(creds({}, { subject: { CN: 'jane', O: ['dev', 'ops'] } }))).toEqual({ username: 'jane', groups: ['dev', 'ops'] });
    expect(await x509(creds({}, { subject: { CN: 'solo' } }))).toEqual({ username: 'solo', groups: [] });
  });
  it('has no opinion without a (verified) certificate or without CN', async () => {
    expect(await x509(creds())).toBeUndefined();
    expect(await x509(creds({}, { subject: { O: 'x' } }))).toBeUndefined();
  });
});

describe('token file', () => {
  it("parses kube's CSV: token,user,uid and quoted comma-separated groups", () => {
    const users = parseTokenFile('t1,alice,1\n\nt2,bob,2,"dev,ops"\nt3,carol,3,single\r\n"t,4","x ""y""",4\n');
    expect(users.get('t1')).toEqual({ username: 'alice', uid: '1', groups: [] });
    expect(users.get('t2')).toEqual({ username: 'bob', uid: '2', groups: ['dev', 'ops'] });
    expect(users.get('t3')).toEqual({ username: 'carol', uid: '3', groups: ['single'] });
    expect(users.get('t,4')).toEqual({ username: 'x "y"', uid: '4', groups: [] });
  });
  it('rejects lines with fewer than 3 columns and bad quoting; skips empty tokens; the last duplicate wins', () => {
    expect(() => parseTokenFile('t1,alice\n')).toThrow(/at least 3 columns.*found 2/);
    expect(() => parseTokenFile('t1,al"ice,1\n')).toThrow(/bare "/);
    expect(() => parseTokenFile('"t1,alice,1\n')).toThrow(/quoted-field/);
    const users = parseTokenFile(',nobody,0\nt,a,1\nt,b,2\n');
    expect([...users.keys()]).toEqual(['t']);
    expect(users.get('t')?.username).toBe('b');
  });
  it('authenticates Authorization: Bearer <token>; an unknown token is 401', async () => {
    const tokens = tokenFileAuthenticator('secret,alice,uid-1,"dev,ops"\n');
    expect(await tokens(creds({ authorization: 'Bearer secret' }))).toEqual({ username: 'alice', uid: 'uid-1', groups: ['dev', 'ops'] });
    expect(await tokens(creds({ authorization: 'bearer secret' }))).toMatchObject({ username: 'alice' });
    expect(await tokens(creds())).toBeUndefined();
    expect(await tokens(creds({ authorization: 'Basic YTpi' }))).toBeUndefined();
    const status = await status401(Promise.resolve().then(() => tokens(creds({ authorization: 'Bearer wrong' }))));
    expect(status).toMatchObject({ code: 401, reason: 'Unauthorized' });
  });
});

describe('authenticate', () => {
  const chain = [x509Authenticator(), tokenFileAuthenticator('secret,alice,1,dev\n')];
  it('adds system:authenticated to authenticated users; the certificate comes first', async () => {
    expect(await authenticate(chain, creds({ authorization: 'Bearer secret' }), { anonymous: true })).toEqual({
      username: 'alice', uid: '1', groups: ['dev', 'system:authenticated'],
    });
    const both = creds({ authorization: 'Bearer wrong' }, { subject: { CN: 'kapi-admin', O: 'system:masters' } });
    expect(await authenticate(chain, both, { anonymous: true })).toEqual({ username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
  });
  it('no credentials: anonymous when enabled, 401 when not', async () => {
    expect(await authenticate(chain, creds(), { anonymous: true })).toEqual(ANONYMOUS);
    expect(await status401(authenticate(chain, creds(), { anonymous: false }))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401,
    });
  });
  it('rejected credentials are 401 even with anonymous access on', async () => {
    expect((await status401(authenticate(chain, creds({ authorization: 'Bearer wrong' }), { anonymous: true }))).code).toBe(401);
  });
});
