import { describe, expect, it } from 'vitest';
import { authenticate } from '../authenticators.js';
import type { RestClient } from './rest-client.js';
import { tokenReviewAuthenticator } from './token-review.js';

/** A main server answering TokenReviews from a table of tokens, counting calls. */
function fakeMainServer(users: Record<string, { username: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> }>) {
  const calls: unknown[] = [];
  let down = false;
  const client: RestClient = {
    async get() {
      throw new Error('unexpected');
    },
    async post(path, body) {
      calls.push({ path, body });
      if (down) throw new Error('connect ECONNREFUSED');
      const token = (body as { spec: { token: string } }).spec.token;
      const user = users[token];
      return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status: user ? { authenticated: true, user } : { authenticated: false } };
    },
    close() {},
  };
  return { client, calls, setDown: (value: boolean) => (down = value) };
}

const bearer = (token: string) => ({ headers: new Headers({ authorization: `Bearer ${token}` }) });

describe('tokenReviewAuthenticator', () => {
  it('asks the main server with a TokenReview and returns its user', async () => {
    const main = fakeMainServer({ t1: { username: 'alice', uid: '1', groups: ['dev'], extra: { scopes: ['x'] } } });
    const auth = tokenReviewAuthenticator({ client: main.client });
    expect(await auth(bearer('t1'))).toEqual({ username: 'alice', uid: '1', groups: ['dev'], extra: { scopes: ['x'] } });
    expect(main.calls).toEqual([
      { path: '/apis/authentication.k8s.io/v1/tokenreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 't1' } } },
    ]);
  });

  it('caches answers for the TTL, per token (users never share an answer)', async () => {
    let now = 0;
    const main = fakeMainServer({ a: { username: 'alice' }, b: { username: 'bob' } });
    const auth = tokenReviewAuthenticator({ client: main.client, now: () => now });
    expect((await auth(bearer('a')))?.username).toBe('alice');
    expect((await auth(bearer('b')))?.username).toBe('bob');
    expect((await auth(bearer('a')))?.username).toBe('alice');
    expect(main.calls).toHaveLength(2);
    now = 10_001;
    await auth(bearer('a'));
    expect(main.calls).toHaveLength(3);
  });

  it('rejects a token the main server does not authenticate (401, cached), and when it cannot be asked (not cached)', async () => {
    const main = fakeMainServer({ good: { username: 'alice' } });
    const auth = tokenReviewAuthenticator({ client: main.client });
    await expect(async () => auth(bearer('bad'))).rejects.toMatchObject({ status: { code: 401 } });
    await expect(async () => auth(bearer('bad'))).rejects.toMatchObject({ status: { code: 401 } });
    expect(main.calls).toHaveLength(1);
    main.setDown(true);
    await expect(async () => auth(bearer('good'))).rejects.toMatchObject({ status: { code: 401 } });
    main.setDown(false);
    expect((await auth(bearer('good')))?.username).toBe('alice');
    // a rejected token is a 401 even with anonymous access on
    await expect(authenticate([auth], bearer('bad'), { anonymous: true })).rejects.toMatchObject({ status: { code: 401 } });
  });

  it('has no opinion without a bearer token', async () => {
    const main = fakeMainServer({});
    expect(await tokenReviewAuthenticator({ client: main.client })({ headers: new Headers() })).toBeUndefined();
    expect(main.calls).toHaveLength(0);
  });
});
