import { plugin as coordination } from '@kapi/api-coordination';
import { startTestServer, type TestServer } from '@kapi/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, leases, runLeaderElection, type LeaderElection } from '../src/index.js';

let server: TestServer | undefined;
let elections: LeaderElection[] = [];
afterEach(async () => {
  await Promise.all(elections.map((e) => e.stop()));
  elections = [];
  await server?.stop();
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 800 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('runLeaderElection', () => {
  it('elects one leader on a Lease; when it stops, it gives the lease up and another takes over', { timeout: 20_000 }, async () => {
    server = await startTestServer({ listen: false, plugins: [coordination] });
    const ns = await server.createNamespace('election');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch });
    const leading = new Map<string, AbortSignal>();
    const seen: string[] = [];
    const stopped: string[] = [];
    const candidate = (identity: string) =>
      runLeaderElection({
        client,
        namespace: ns,
        name: 'operator',
        identity,
        leaseDurationSeconds: 2,
        renewDeadlineMs: 1_500,
        retryPeriodMs: 100,
        onStartedLeading: (signal) => void leading.set(identity, signal),
        onNewLeader: (id) => seen.push(`${identity} sees ${id}`),
        onStoppedLeading: () => stopped.push(identity),
      });
    const a = candidate('a');
    elections.push(a);
    await until(() => a.isLeader, 'a leading');
    const b = candidate('b');
    elections.push(b);
    await until(() => seen.includes('b sees a'), 'b seeing a lead');
    // Several rounds later b still waits: a renews.
    await new Promise((r) => setTimeout(r, 500));
    expect(b.isLeader).toBe(false);
    const lease = await client.resource(leases).namespace(ns).get('operator');
    expect(lease.spec?.holderIdentity).toBe('a');
    expect(lease.spec?.leaseDurationSeconds).toBe(2);
    expect(lease.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    await a.stop();
    expect(leading.get('a')?.aborted).toBe(true);
    expect(stopped).toEqual(['a']);
    // Given up: no holder until b takes it.
    const released = await client.resource(leases).namespace(ns).get('operator');
    expect([null, undefined, 'b']).toContain(released.spec?.holderIdentity);
    await until(() => b.isLeader, 'b taking over');
    const taken = await client.resource(leases).namespace(ns).get('operator');
    expect(taken.spec?.holderIdentity).toBe('b');
    expect(taken.spec?.leaseTransitions).toBe(1);
  });

  it('takes over from a leader that stops renewing once its lease runs out, and not before', { timeout: 20_000 }, async () => {
    server = await startTestServer({ listen: false, plugins: [coordination] });
    const ns = await server.createNamespace('expiry');
    const client = createClient({ server: 'http://kapi.test', fetch: server.fetch });
    const now = new Date().toISOString().replace('Z', '000Z');
    // A leader that vanished without giving the lease up.
    await client.resource(leases).create({
      metadata: { name: 'operator', namespace: ns },
      spec: { holderIdentity: 'gone', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: 3 },
    });
    let startedAt = 0;
    const started = Date.now();
    const b = runLeaderElection({
      client,
      namespace: ns,
      name: 'operator',
      identity: 'b',
      leaseDurationSeconds: 1,
      renewDeadlineMs: 800,
      retryPeriodMs: 100,
      onStartedLeading: () => void (startedAt = Date.now()),
    });
    elections.push(b);
    await until(() => b.isLeader, 'b taking the expired lease');
    // It waited out the lease's duration as it observed it.
    expect(startedAt - started).toBeGreaterThanOrEqual(900);
    const lease = await client.resource(leases).namespace(ns).get('operator');
    expect(lease.spec?.holderIdentity).toBe('b');
    expect(lease.spec?.leaseTransitions).toBe(4);
  });
});
