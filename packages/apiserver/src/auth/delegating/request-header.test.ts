import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../authenticators.js';
import { clientCertificateAuthenticator } from './client-certificate.js';
import { makeCa, makeCert } from './pki.fixtures.js';
import { requestHeaderAuthenticator } from './request-header.js';
import type { RequestHeaderConfig } from './authentication-config.js';

const proxyCa = makeCa('front-proxy-ca');
const clientCa = makeCa('client-ca');
const proxy = makeCert(proxyCa, '/CN=front-proxy-client');
const config: RequestHeaderConfig = {
  ca: [proxyCa.x509],
  allowedNames: ['front-proxy-client'],
  usernameHeaders: ['X-Remote-User'],
  uidHeaders: ['X-Remote-Uid'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
};
const frontProxy = requestHeaderAuthenticator(() => config);
// The delegated chain: front proxy, then client certificates; anonymous access on, as kube's delegating default.
const chain = [frontProxy, clientCertificateAuthenticator(() => [clientCa.x509])];
const forged = () => {
  const h = new Headers();
  h.append('X-Remote-User', 'admin');
  h.append('X-Remote-Group', 'system:masters');
  return h;
};

afterEach(() => vi.useRealTimers());

describe('requestHeaderAuthenticator', () => {
  it('takes the user, groups, uid and extra from the headers of a verified front proxy', async () => {
    const headers = new Headers();
    headers.append('X-Remote-User', 'alice');
    headers.append('X-Remote-Uid', 'u-1');
    headers.append('X-Remote-Group', 'dev');
    headers.append('X-Remote-Group', 'ops');
    headers.append('X-Remote-Extra-Scopes', 'read');
    headers.append('X-Remote-Extra-Scopes', 'write');
    headers.append('X-Remote-Extra-Example.com%2fTeam', 'blue');
    expect(await frontProxy({ headers, peerCertificateChain: [proxy.x509] })).toEqual({
      username: 'alice',
      uid: 'u-1',
      groups: ['dev', 'ops'],
      extra: { scopes: ['read', 'write'], 'example.com/team': ['blue'] },
    });
  });

  it('reads the header bytes as UTF-8, as the front proxy sends them (node hands them over one character per byte)', async () => {
    const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    const headers = new Headers({ 'X-Remote-User': utf8('josé'), 'X-Remote-Group': utf8('équipe'), 'X-Remote-Extra-Team': utf8('用户') });
    expect(await frontProxy({ headers, peerCertificateChain: [proxy.x509] })).toEqual({ username: 'josé', groups: ['équipe'], extra: { team: ['用户'] } });
    // bytes that are not UTF-8 stay as they came
    expect((await frontProxy({ headers: new Headers({ 'X-Remote-User': 'caf\u00e9' }), peerCertificateChain: [proxy.x509] }))?.username).toBe('café');
  });

  it('takes the first non-empty username header', async () => {
    const two = requestHeaderAuthenticator(() => ({ ...config, usernameHeaders: ['X-First', 'X-Remote-User'] }));
    const headers = new Headers({ 'X-First': '', 'X-Remote-User': 'bob' });
    expect((await two({ headers, peerCertificateChain: [proxy.x509] }))?.username).toBe('bob');
  });

  it('ignores the headers of a request without a client certificate (anonymous, not admin)', async () => {
    expect(await frontProxy({ headers: forged() })).toBeUndefined();
    expect(await authenticate(chain, { headers: forged() }, { anonymous: true })).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('refuses a certificate of another CA, and one whose CN is not an allowed name', async () => {
    const wrongCa = makeCert(makeCa('front-proxy-ca'), '/CN=front-proxy-client');
    await expect(async () => frontProxy({ headers: forged(), peerCertificateChain: [wrongCa.x509] })).rejects.toMatchObject({ status: { code: 401 } });
    const notAllowed = makeCert(proxyCa, '/CN=someone-else');
    await expect(async () => frontProxy({ headers: forged(), peerCertificateChain: [notAllowed.x509] })).rejects.toMatchObject({ status: { code: 401 } });
    await expect(authenticate(chain, { headers: forged(), peerCertificateChain: [notAllowed.x509] }, { anonymous: true })).rejects.toMatchObject({ status: { code: 401 } });
  });

  it('accepts any certificate of the CA when no names are allowed', async () => {
    const any = requestHeaderAuthenticator(() => ({ ...config, allowedNames: [] }));
    const other = makeCert(proxyCa, '/CN=someone-else');
    expect((await any({ headers: forged(), peerCertificateChain: [other.x509] }))?.username).toBe('admin');
  });

  it('refuses an expired front-proxy certificate', async () => {
    const shortLived = makeCert(proxyCa, '/CN=front-proxy-client', { days: 1 });
    vi.useFakeTimers({ now: Date.now() + 3 * 86_400_000 });
    await expect(async () => frontProxy({ headers: forged(), peerCertificateChain: [shortLived.x509] })).rejects.toMatchObject({ status: { code: 401 } });
  });

  it('lets a client certificate of the client CA authenticate as itself, its X-Remote headers ignored', async () => {
    const alice = makeCert(clientCa, '/CN=alice/O=dev');
    expect(await authenticate(chain, { headers: forged(), peerCertificateChain: [alice.x509] }, { anonymous: true })).toEqual({
      username: 'alice',
      groups: ['dev', 'system:authenticated'],
    });
  });

  it('has no opinion without a front-proxy configuration, or without a username header', async () => {
    expect(await requestHeaderAuthenticator(() => undefined)({ headers: forged(), peerCertificateChain: [proxy.x509] })).toBeUndefined();
    expect(await frontProxy({ headers: new Headers({ 'X-Remote-Group': 'system:masters' }), peerCertificateChain: [proxy.x509] })).toBeUndefined();
  });
});

describe('clientCertificateAuthenticator', () => {
  const auth = clientCertificateAuthenticator(() => [clientCa.x509]);
  it('authenticates a certificate of the client CA as its CN and O', async () => {
    expect(await auth({ headers: new Headers(), peerCertificateChain: [makeCert(clientCa, '/CN=bob/O=a/O=b').x509] })).toEqual({ username: 'bob', groups: ['a', 'b'] });
  });
  it('rejects a front-proxy certificate and one of an unknown CA', async () => {
    await expect(async () => auth({ headers: new Headers(), peerCertificateChain: [proxy.x509] })).rejects.toMatchObject({ status: { code: 401 } });
  });
  it('has no opinion without a certificate or without a client CA', async () => {
    expect(await auth({ headers: new Headers() })).toBeUndefined();
    expect(await clientCertificateAuthenticator(() => undefined)({ headers: new Headers(), peerCertificateChain: [proxy.x509] })).toBeUndefined();
  });
});
