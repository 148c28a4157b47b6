import { StatusError, type KubeObject } from '@kapi/apimachinery';
import { KUBE_API_LEVEL, type ComputedResource, type PluginHost } from '@kapi/apiserver';
import { httpProbe, type ProbeOutcome, type ProbeResult } from './http-probe.js';

export { httpProbe, type HttpProbeOptions, type ProbeOutcome, type ProbeResult } from './http-probe.js';

/** A component kube-apiserver checks over HTTP(S), by the name its ComponentStatus has. */
export interface ComponentProbe {
  name: string;
  /** The health URL; HTTPS is probed without verifying the certificate, as kube does. */
  url: string;
}

export interface ComponentStatusOptions {
  /**
   * The components probed over HTTP(S), listed in this order before the storage backend. Default: kube-apiserver's,
   * `scheduler` at https://127.0.0.1:10259/healthz and `controller-manager` at https://127.0.0.1:10257/healthz
   * (their default secure ports on the same host).
   */
  components?: ComponentProbe[];
  /** The limit of one check, HTTP or storage (kube's componentstatus probeTimeOut: 20 s). */
  timeoutMs?: number;
}

/** kube-apiserver's fixed list (pkg/registry/core/rest/storage_core.go serversToValidate). */
export const DEFAULT_COMPONENT_PROBES: readonly ComponentProbe[] = Object.freeze([
  { name: 'scheduler', url: 'https://127.0.0.1:10259/healthz' },
  { name: 'controller-manager', url: 'https://127.0.0.1:10257/healthz' },
]);

/**
 * The storage backend's ComponentStatus name. kube names one `etcd-<i>` per storage backend configuration (one
 * for `--etcd-servers`, whatever the number of servers in it). Kapi has one backend whatever it is (etcd, SQLite
 * or memory) and keeps kube's name for it: clients and scripts look for `etcd-0`, and the same check is /readyz's
 * `etcd` on every backend.
 */
export const STORAGE_COMPONENT = 'etcd-0';

const PROBE_TIMEOUT_MS = 20_000;

/** kube's ToConditionStatus: Success is True, Failure False, anything else (a Warning) Unknown. */
export function toConditionStatus(result: ProbeResult): 'True' | 'False' | 'Unknown' {
  if (result === 'Success') return 'True';
  if (result === 'Failure') return 'False';
  return 'Unknown';
}

/** A ComponentStatus with its one `Healthy` condition (kube's getComponentStatus); empty message and error left out. */
export function componentStatus(name: string, outcome: ProbeOutcome): KubeObject {
  const condition: Record<string, string> = { type: 'Healthy', status: toConditionStatus(outcome.result) };
  if (outcome.message) condition.message = outcome.message;
  if (outcome.error) condition.error = outcome.error;
  return { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name }, conditions: [condition] } as KubeObject;
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('context deadline exceeded')), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The storage backend's check (kube's EtcdServer.DoServerCheck): the server's own storage probe, the read /readyz's
 * `etcd` check makes. Healthy is `ok`; a failure has no message and the probe's error as error.
 */
async function storageCheck(host: Pick<PluginHost, 'probeStorage'>, timeoutMs: number): Promise<ProbeOutcome> {
  try {
    await withTimeout(host.probeStorage(), timeoutMs);
    return { result: 'Success', message: 'ok', error: '' };
  } catch (err) {
    return { result: 'Failure', message: '', error: (err as Error)?.message || String(err) };
  }
}

/**
 * componentstatuses as kube-apiserver computes them (pkg/registry/core/componentstatus): on every get and list,
 * each component is checked anew (a list checks them all at once) and nothing is stored. The server applies a
 * list's selectors and answers 404 for another name.
 */
export function componentStatuses(host: Pick<PluginHost, 'probeStorage'>, options: ComponentStatusOptions = {}): ComputedResource {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const userAgent = `kube-probe/${KUBE_API_LEVEL.major}.${KUBE_API_LEVEL.minor}`;
  const checks = new Map<string, () => Promise<ProbeOutcome>>();
  for (const { name, url } of options.components ?? DEFAULT_COMPONENT_PROBES) checks.set(name, () => httpProbe(url, { timeoutMs, userAgent }));
  checks.set(STORAGE_COMPONENT, () => storageCheck(host, timeoutMs));
  return {
    async get(_ctx, name) {
      const check = checks.get(name);
      // kube's componentstatus REST answers an unknown name with a plain error: 500, no reason.
      if (!check) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Component not found: ${name}`, code: 500 });
      return componentStatus(name, await check());
    },
    async list() {
      return Promise.all([...checks].map(async ([name, check]) => componentStatus(name, await check())));
    },
  };
}
