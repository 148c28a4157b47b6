import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { cloneJson, formatMicroTime, isStatusError, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost } from '@kapi/apiserver';

export interface LeaderElectionOptions {
  /** The Lease's name (kube-controller-manager's is `kube-controller-manager`). */
  name: string;
  /** Its namespace; kube-system by default. */
  namespace?: string;
  /** How long a leader holds the lease without renewing it (kube's default 15 s). */
  leaseDurationSeconds?: number;
  /** How often the lease is renewed, or tried for (kube's retry period: 2 s). */
  retryPeriodMs?: number;
  /** This process's identity in the lease (kube's: hostname and a unique suffix). */
  identity?: string;
}

export interface LeaderElection {
  /** Whether this server holds the lease now. */
  readonly leading: boolean;
  readonly identity: string;
}

type Lease = KubeObject & {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number };
};

/** A MicroTime as kube writes it (RFC 3339 with microseconds), for a time in milliseconds. */
const microTime = (ms: number) => formatMicroTime(Math.floor(ms / 1000), (ms % 1000) * 1_000_000);

/**
 * kube's Lease-based leader election (client-go leaderelection with a coordination.k8s.io/v1 Lease), for controllers
 * several servers on one storage must not run at once: the lease is taken when it is free or its holder has not
 * renewed it within leaseDurationSeconds, renewed every retry period while held, and given up when the server stops.
 * `onChange` is told when this server starts or stops leading. A server that does not serve Leases leads alone.
 */
export function electLeader(host: PluginHost, options: LeaderElectionOptions, onChange: (leading: boolean) => void): LeaderElection {
  const namespace = options.namespace ?? 'kube-system';
  const duration = options.leaseDurationSeconds ?? 15;
  const retry = options.retryPeriodMs ?? 2000;
  const identity = options.identity ?? `${hostname()}_${randomUUID()}`;
  const leases = host.registry.byKind('coordination.k8s.io', 'v1', 'Lease');
  let leading = false;
  // client-go's observedRecord and observedTime: a lease expires leaseDurationSeconds after this server last saw it
  // change, by its own clock (not by the renewTime written in it, which a skewed clock or a hostile edit could set).
  let observedRecord = '';
  let observedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const set = (now: boolean) => {
    if (now === leading) return;
    leading = now;
    onChange(now);
  };

  const attempt = async (): Promise<boolean> => {
    if (!leases) return true;
    const ctx = host.systemContext(leases, { namespace });
    const now = Date.now();
    const current = (await host.store.find(ctx, options.name)) as Lease | undefined;
    const spec = { holderIdentity: identity, leaseDurationSeconds: duration, renewTime: microTime(now) };
    if (!current) {
      await host.store.create(ctx, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: options.name, namespace }, spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 } });
      return true;
    }
    const held = current.spec ?? {};
    const record = JSON.stringify([held.holderIdentity, held.renewTime, held.acquireTime, held.leaseDurationSeconds, held.leaseTransitions]);
    if (record !== observedRecord) {
      observedRecord = record;
      observedAt = now;
    }
    const expired = observedAt + (held.leaseDurationSeconds ?? duration) * 1000 < now;
    if (held.holderIdentity && held.holderIdentity !== identity && !expired) return false;
    const rv = current.metadata?.resourceVersion;
    await host.store.update(ctx, options.name, (latest) => {
      // Optimistic concurrency: another server that renewed or took it since the read wins.
      if (!latest || latest.metadata?.resourceVersion !== rv) throw new Error('the lease changed');
      const taking = held.holderIdentity !== identity;
      const next = cloneJson(latest) as Lease;
      next.spec = {
        ...held,
        ...spec,
        acquireTime: taking ? microTime(now) : (held.acquireTime ?? microTime(now)),
        leaseTransitions: (held.leaseTransitions ?? 0) + (taking && held.holderIdentity ? 1 : 0),
      };
      return next;
    });
    return true;
  };

  const loop = async () => {
    if (stopped) return;
    try {
      set(await attempt());
    } catch (err) {
      if (!isStatusError(err) || err.status.code !== 409) host.log(3, `leader election ${namespace}/${options.name}: ${(err as Error).message}`);
      set(false);
    }
    if (!stopped) timer = setTimeout(() => void loop(), retry);
  };

  host.onStart(async () => void loop());
  host.onStop(async () => {
    stopped = true;
    clearTimeout(timer);
    if (!leading || !leases) return set(false);
    set(false);
    // Given up at once (kube's ReleaseOnCancel), so another server need not wait for it to expire.
    try {
      await host.store.update(host.systemContext(leases, { namespace }), options.name, (latest) => {
        const lease = cloneJson(latest!) as Lease;
        if (lease.spec?.holderIdentity !== identity) throw new Error('not ours');
        lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(Date.now() - 2000) };
        return lease;
      });
    } catch {
      // Someone else holds it, or storage is closing: it expires on its own.
    }
  });
  return {
    get leading() {
      return leading;
    },
    identity,
  };
}
