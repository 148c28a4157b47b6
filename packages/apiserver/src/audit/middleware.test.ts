import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../admission/types.js';
import { auditAuthenticated } from './context.js';
import { microTime } from './event.js';
import { auditLog } from './middleware.js';

describe('audit middleware', () => {
  it('records the user authentication reports, and a request that never authenticated once, at ResponseStarted', async () => {
    const lines: string[] = [];
    const alice: UserInfo = { username: 'alice', uid: '42', groups: ['devs', 'system:authenticated'] };
    const app = new Hono<{ Variables: { user: UserInfo } }>();
    app.use('*', auditLog({ write: (line) => void lines.push(line) }));
    app.use('*', async (c, next) => {
      if (c.req.header('authorization')) auditAuthenticated(alice);
      else return c.json({ kind: 'Status', code: 401 }, 401);
      await next();
    });
    app.get('*', (c) => c.json({}));
    await app.request('/api/v1/namespaces/ns/pods/p/status', { headers: { authorization: 'Bearer t' } }, { remoteAddress: '192.0.2.1' });
    await app.request('/healthz', { method: 'POST' });
    const [received, ok, denied] = lines.map((l) => JSON.parse(l));
    expect([received.stage, ok.stage, denied.stage]).toEqual(['RequestReceived', 'ResponseComplete', 'ResponseStarted']);
    expect(ok).toMatchObject({
      verb: 'get', user: alice, sourceIPs: ['192.0.2.1'], responseStatus: { code: 200 },
      objectRef: { resource: 'pods', namespace: 'ns', name: 'p', apiVersion: 'v1', subresource: 'status' },
    });
    expect(denied).toMatchObject({ verb: 'post', requestURI: '/healthz', user: { username: 'system:anonymous' }, responseStatus: { code: 401 } });
    expect(denied.objectRef).toBeUndefined();
  });

  it("writes kube's MicroTime", () => {
    expect(microTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678) * 1000 + 9)).toBe('2024-01-02T03:04:05.678009Z');
  });
});
