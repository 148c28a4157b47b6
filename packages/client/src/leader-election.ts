import { sleep } from './backoff.js';
import type { BaseClient } from './client.js';
import { isAlreadyExists, isConflict, isNotFound } from './errors.js';
import type { ResourceClient, ResourceType } from './resource.js';
import type { ObjectMetaLike } from './types.js';

/** coordination.k8s.io/v1 Lease: the record the candidates race for. */
export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
  spec?: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export const leases: ResourceType<Lease> = { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true };

export interface LeaderElectionOptions {
  client: BaseClient;
  /** Where the Lease lives. */
  namespace: string;
  name: string;
  /** This candidate, unique among them (host name and pid, say). */
  identity: string;
  /** How long a leader's claim holds without renewal (15 s). */
  leaseDurationSeconds?: number;
  /** A leader that cannot renew for this long steps down (10 s); shorter than the lease. */
  renewDeadlineMs?: number;
  /** How often candidates try, and the leader renews (2 s). */
  retryPeriodMs?: number;
  /** Runs while leading; `signal` aborts when leadership is lost or the election stops. */
  onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  onStoppedLeading?: () => void;
  /** Another (or this) candidate leads. */
  onNewLeader?: (identity: string) => void;
  onError?: (error: unknown) => void;
}

export interface LeaderElection {
  readonly isLeader: boolean;
  /** Stops campaigning; a leader gives the lease up so another can take it at once. */
  stop(): Promise<void>;
}

/** RFC 3339 with microseconds: a MicroTime. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * Leader election on a Lease, as client-go's: candidates try to take the lease when its holder has not renewed it
 * within its duration (measured by this process's clock, from when it last saw the lease change, so clocks need not
 * agree); the leader renews it every retry period and steps down when it cannot for the renew deadline. Writes carry
 * the resourceVersion read, so two candidates never both win.
 */
export function runLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const { namespace, name, identity, leaseDurationSeconds = 15, renewDeadlineMs = 10_000, retryPeriodMs = 2_000 } = options;
  const api: ResourceClient<Lease> = options.client.resource(leases).namespace(namespace);
  const stopping = new AbortController();
  let leading: AbortController | undefined;
  let observed: { rv?: string; holder?: string | null; at: number } | undefined;
  let lastRenew = 0;
  let leader: string | undefined;
  const report = options.onError ?? ((e) => console.error(`leader election ${namespace}/${name}:`, e));

  const spec = (transitions: number, acquire?: string) => ({
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: acquire ?? microTime(Date.now()),
    renewTime: microTime(Date.now()),
    leaseTransitions: transitions,
  });

  const seeLeader = (holder: string | null | undefined) => {
    if (holder && holder !== leader) {
      leader = holder;
      options.onNewLeader?.(holder);
    }
  };

  /** One round: true when this candidate holds the lease afterwards. */
  async function tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    let lease: Lease;
    try {
      lease = await api.get(name, { signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      try {
        await api.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: spec(0) }, { signal });
        seeLeader(identity);
        return true;
      } catch (e) {
        if (isAlreadyExists(e)) return false;
        throw e;
      }
    }
    const rv = lease.metadata?.resourceVersion;
    const holder = lease.spec?.holderIdentity;
    const now = Date.now();
    if (!observed || observed.rv !== rv) observed = { rv, holder, at: now };
    seeLeader(holder);
    const mine = holder === identity;
    const duration = (lease.spec?.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
    if (!mine && holder && now < observed.at + duration) return false;
    const transitions = (lease.spec?.leaseTransitions ?? 0) + (mine ? 0 : 1);
    try {
      const updated = await api.update({ ...lease, spec: spec(transitions, mine ? lease.spec?.acquireTime : undefined) }, { signal });
      observed = { rv: updated.metadata?.resourceVersion, holder: identity, at: Date.now() };
      seeLeader(identity);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  async function release(): Promise<void> {
    const signal = AbortSignal.timeout(renewDeadlineMs);
    try {
      const lease = await api.get(name, { signal });
      if (lease.spec?.holderIdentity !== identity) return;
      await api.update({ ...lease, spec: { ...lease.spec, holderIdentity: null, leaseDurationSeconds: 1, renewTime: microTime(Date.now()) } }, { signal });
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) report(error);
    }
  }

  function stepDown(): void {
    if (!leading) return;
    leading.abort();
    leading = undefined;
    options.onStoppedLeading?.();
  }

  // Whether the last round ended with this candidate holding the lease (so stop() gives it up).
  let holding = false;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let ok = false;
      // A round's requests end by the renew deadline (a leader's, counted from its last renewal), so a request that
      // hangs cannot keep a leader leading after another candidate may have taken the lease; stop() ends them too.
      const budget = leading ? Math.max(1, renewDeadlineMs - (Date.now() - lastRenew)) : renewDeadlineMs;
      const round = AbortSignal.any([stopping.signal, AbortSignal.timeout(budget)]);
      try {
        ok = await tryAcquireOrRenew(round);
      } catch (error) {
        if (!stopping.signal.aborted) report(error);
      }
      holding = ok;
      if (stopping.signal.aborted) break;
      const now = Date.now();
      if (ok) {
        lastRenew = now;
        if (!leading) {
          leading = new AbortController();
          const signal = leading.signal;
          Promise.resolve()
            .then(() => options.onStartedLeading(signal))
            .catch(report);
        }
      } else if (leading && now - lastRenew >= renewDeadlineMs) {
        stepDown();
      } else if (leading && leader !== identity) {
        stepDown();
      }
      await sleep(retryPeriodMs * (leading ? 1 : 1 + Math.random() * 0.2), stopping.signal);
    }
  })();

  return {
    get isLeader() {
      return leading !== undefined;
    },
    async stop() {
      stopping.abort();
      await loop;
      // As client-go's ReleaseOnCancel: the work stops, the lease is given up, then onStoppedLeading runs.
      const wasLeading = leading !== undefined;
      leading?.abort();
      leading = undefined;
      if (holding || wasLeading) await release();
      if (wasLeading) options.onStoppedLeading?.();
    },
  };
}
