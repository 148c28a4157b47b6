// The aggregator inside a server (kube-aggregator in front of the generic server): it follows the APIService
// objects, keeps their Available condition true to what it finds, proxies the group versions they send to a
// Service, and merges what those extension servers serve into discovery and OpenAPI.
import type { KubeObject } from '@kapi/apimachinery';
import {
  followObjects,
  resolveServiceAddress,
  type ExternalDiscovery,
  type ExternalOpenAPI,
  type PluginHost,
  type RequestDelegate,
  type ResourceEntry,
} from '@kapi/apiserver';
import { availableCondition, groupVersionKey, type APIService, type APIServiceCondition } from './apiservice/types.js';
import { autoregister } from './autoregister/controller.js';
import { checkAvailable, LOCAL_AVAILABLE, sameCondition } from './availability/check.js';
import { proxyHandler } from './proxy/handler.js';
import { readOpenAPIV2, readOpenAPIV3, readResources, type RemoteDocuments } from './remote/documents.js';
import { createDialers, type ProxyClientCertificate } from './transport.js';
import { publishAuthenticationTrust, type AuthenticationTrust } from './authentication-trust.js';

export interface AggregatorOptions {
  /**
   * The front proxy's client certificate (kube-apiserver's --proxy-client-cert-file and --proxy-client-key-file),
   * presented to every extension server. Without one the aggregator dials without a client certificate, and
   * extensions cannot trust the user it names.
   */
  proxyClientCertificate?: ProxyClientCertificate;
  /**
   * What the server tells extension servers to trust (its client CA and the front proxy's request-header CA),
   * published in kube-system/extension-apiserver-authentication for their delegated authentication. Without it
   * nothing is published.
   */
  authentication?: AuthenticationTrust;
  /** How often an Available APIService is checked again, in ms (kube resyncs every 30 s). */
  resyncIntervalMs?: number;
  /** How soon an APIService that is not Available is checked again, in ms. */
  retryIntervalMs?: number;
}

interface State {
  apiService: APIService;
  /** The spec the state was made for: a new spec starts afresh. */
  specKey: string;
  available: boolean;
  /** Aborted (and replaced) when the APIService stops being available: proxied requests waiting end at once. */
  unavailable: AbortController;
  timer?: NodeJS.Timeout;
  checking?: Promise<void>;
  documents: RemoteDocuments;
  /**
   * Where the last check found the Service (undefined when it found none, or before any check): what the proxy dials,
   * so a request reads no Service and no endpoints. A change to those is checked again at once.
   */
  address?: URL;
  proxy?: RequestDelegate;
}

const nameOf = (o: KubeObject) => String((o.metadata as { name?: string }).name ?? '');
/** `/apis/<group>/<version>...`, or `/api/<version>...` for the legacy core group (APIService `v1.`). */
const GROUP_VERSION_PATH = /^\/apis\/([^/]+)\/([^/]+)(?:\/|$)/;
const LEGACY_VERSION_PATH = /^\/api\/([^/]+)(?:\/|$)/;

/** Installs the aggregator into the server that serves `entry` (apiregistration.k8s.io/v1 APIServices). */
export function installAggregator(host: PluginHost, entry: ResourceEntry, options: AggregatorOptions = {}): void {
  const resyncMs = options.resyncIntervalMs ?? 30_000;
  const retryMs = options.retryIntervalMs ?? 5_000;
  const dialers = createDialers(options.proxyClientCertificate);
  const states = new Map<string, State>();
  /** Service-backed APIServices by `group/version`: the requests the proxy takes. */
  let routes = new Map<string, State>();
  let discovery: ExternalDiscovery = { versions: [], priorities: new Map() };
  let openapi: ExternalOpenAPI = { v3: new Map(), v2: [] };
  let stopped = false;

  const statusContext = () => host.systemContext(entry, { subresource: 'status' });

  const writeCondition = async (name: string, condition: Omit<APIServiceCondition, 'lastTransitionTime'>) => {
    try {
      await host.store.update(statusContext(), name, (current) => {
        if (!current) throw Object.assign(new Error(`apiservice ${name} is gone`), { gone: true });
        const obj = structuredClone(current) as APIService;
        const before = availableCondition(obj);
        if (sameCondition(before, condition)) return current;
        const next: APIServiceCondition = {
          ...condition,
          lastTransitionTime: before && before.status === condition.status && before.lastTransitionTime ? before.lastTransitionTime : new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        };
        obj.status = { ...obj.status, conditions: [...(obj.status?.conditions ?? []).filter((c) => c.type !== 'Available'), next] };
        return obj as KubeObject;
      });
    } catch (err) {
      if (!(err as { gone?: boolean }).gone && !stopped) host.log(1, `apiservice ${name}: status not written: ${(err as Error).message}`);
    }
  };

  const setAvailable = (state: State, available: boolean) => {
    if (state.available && !available) {
      state.unavailable.abort();
      state.unavailable = new AbortController();
    }
    state.available = available;
  };

  const service = (state: State) => {
    const s = state.apiService.spec.service!;
    return { namespace: s.namespace ?? '', name: s.name ?? '', port: s.port ?? 443 };
  };

  /**
   * Reads the extension's discovery and OpenAPI documents of the group version again, at `url`; a document that did
   * not change, or could not be read, stays the object it was (discovery and OpenAPI are rebuilt only when one changes).
   */
  const refreshDocuments = async (state: State, url: URL) => {
    const { group = '', version = '' } = state.apiService.spec;
    const dialer = dialers.get(state.apiService);
    const [resources, v3, v2] = await Promise.allSettled([
      readResources(dialer, url, group, version),
      readOpenAPIV3(dialer, url, group, version),
      readOpenAPIV2(dialer, url),
    ]);
    const fresh = <T>(read: PromiseSettledResult<T>, old: T): T =>
      read.status === 'fulfilled' && JSON.stringify(read.value) !== JSON.stringify(old) ? read.value : old;
    state.documents = {
      resources: fresh(resources, state.documents.resources),
      openapiV3: fresh(v3, state.documents.openapiV3),
      openapiV2: fresh(v2, state.documents.openapiV2),
    };
  };

  const check = (state: State): Promise<void> => {
    if (state.checking) return state.checking;
    clearTimeout(state.timer);
    state.checking = (async () => {
      const name = state.apiService.metadata.name;
      let condition: Omit<APIServiceCondition, 'lastTransitionTime'>;
      if (!state.apiService.spec.service) condition = LOCAL_AVAILABLE;
      else {
        const resolution = await resolveServiceAddress(host, service(state));
        state.address = 'url' in resolution ? resolution.url : undefined;
        condition = await checkAvailable(state.apiService, resolution, () => dialers.get(state.apiService));
        if (condition.status === 'True' && state.address) await refreshDocuments(state, state.address);
      }
      if (stopped || states.get(name) !== state) return;
      setAvailable(state, condition.status === 'True');
      rebuild();
      if (!sameCondition(availableCondition(state.apiService), condition)) await writeCondition(name, condition);
    })()
      .catch((err) => host.log(1, `apiservice ${state.apiService.metadata.name}: availability check failed: ${(err as Error).message}`))
      .finally(() => {
        state.checking = undefined;
        if (stopped || states.get(state.apiService.metadata.name) !== state || !state.apiService.spec.service) return;
        state.timer = setTimeout(() => void check(state), state.available ? resyncMs : retryMs);
        state.timer.unref();
      });
    return state.checking;
  };

  /** The proxy's, discovery's and OpenAPI's view of the APIServices, made anew after every change. */
  const rebuild = () => {
    const nextRoutes = new Map<string, State>();
    const priorities = new Map<string, { groupPriorityMinimum: number; versionPriority: number }>();
    const versions: ExternalDiscovery['versions'][number][] = [];
    const v3 = new Map<string, object>();
    const v2: object[] = [];
    for (const state of states.values()) {
      const { group = '', version = '', groupPriorityMinimum = 0, versionPriority = 0 } = state.apiService.spec;
      const key = groupVersionKey(group, version);
      priorities.set(key, { groupPriorityMinimum, versionPriority });
      if (!state.apiService.spec.service) continue;
      nextRoutes.set(key, state);
      versions.push({ group, version, resources: state.documents.resources, freshness: state.available ? 'Current' : 'Stale' });
      if (state.documents.openapiV3) v3.set(group ? `apis/${group}/${version}` : `api/${version}`, state.documents.openapiV3);
      if (state.documents.openapiV2) v2.push(state.documents.openapiV2);
    }
    routes = nextRoutes;
    // Documents keep their identity until they change (refreshDocuments), so comparing references is enough.
    const sameVersions =
      versions.length === discovery.versions.length &&
      versions.every((v, i) => {
        const was = discovery.versions[i];
        return v.group === was.group && v.version === was.version && v.resources === was.resources && v.freshness === was.freshness;
      });
    if (!sameVersions || JSON.stringify([...priorities]) !== JSON.stringify([...discovery.priorities])) discovery = { versions, priorities };
    const sameOpenAPI = v2.length === openapi.v2.length && v2.every((d, i) => d === openapi.v2[i]) && v3.size === openapi.v3.size && [...v3].every(([k, d]) => openapi.v3.get(k) === d);
    if (!sameOpenAPI) openapi = { v3, v2 };
  };

  /** Takes in the APIService objects as last read: new specs are checked at once, removed ones forgotten. */
  const reconcile = (objects: readonly KubeObject[]) => {
    const names = new Set<string>();
    for (const obj of objects) {
      const apiService = obj as APIService;
      const name = nameOf(obj);
      names.add(name);
      const specKey = JSON.stringify(apiService.spec ?? {});
      let state = states.get(name);
      if (!state || state.specKey !== specKey) {
        if (state) {
          clearTimeout(state.timer);
          state.unavailable.abort();
        }
        state = { apiService, specKey, available: false, unavailable: new AbortController(), documents: {} };
        states.set(name, state);
        void check(state);
      }
      state.apiService = apiService;
      // What another server sharing the storage found counts too; a condition that differs from ours is checked again.
      const condition = availableCondition(apiService);
      if (!state.checking) setAvailable(state, apiService.spec.service ? condition?.status === 'True' : true);
      if (!apiService.spec.service && !sameCondition(condition, LOCAL_AVAILABLE)) void check(state);
    }
    for (const [name, state] of states) {
      if (names.has(name)) continue;
      clearTimeout(state.timer);
      state.unavailable.abort();
      states.delete(name);
    }
    dialers.retain(names);
    rebuild();
  };

  const checkServiceBacked = () => {
    for (const state of states.values()) if (state.apiService.spec.service) void check(state);
  };

  const apiServices = followObjects(host, entry, (objects) => {
    reconcile(objects);
    void registration.sync();
  });
  const registration = autoregister(host, entry, apiServices);
  // A Service or its endpoints changing may make an APIService available or not.
  for (const [group, kind] of [['', 'Service'], ['', 'Endpoints'], ['discovery.k8s.io', 'EndpointSlice']] as const) {
    const target = host.registry.entries.find((e) => e.info.group === group && e.info.kind === kind);
    if (target) host.onObjectsChange(target, checkServiceBacked);
  }

  host.routeRequests((path) => {
    if (routes.size === 0) return undefined;
    const named = GROUP_VERSION_PATH.exec(path);
    const legacy = named ? undefined : LEGACY_VERSION_PATH.exec(path);
    const key = named ? `${decodeURIComponentSafe(named[1])}/${decodeURIComponentSafe(named[2])}` : legacy ? decodeURIComponentSafe(legacy[1]) : undefined;
    const state = key === undefined ? undefined : routes.get(key);
    if (!state) return undefined;
    state.proxy ??= proxyHandler({
      available: () => state.available,
      // the address the last check found; resolved now when this server has not checked yet (another server
      // sharing the storage wrote the condition)
      resolve: async () => (state.address ? { url: state.address } : resolveServiceAddress(host, service(state))),
      dialer: () => dialers.get(state.apiService),
      unreachable: () => void check(state),
      signal: () => state.unavailable.signal,
      timeoutMs: host.limits.requestTimeoutMs || 60_000,
    });
    return state.proxy;
  });
  if (options.authentication) publishAuthenticationTrust(host, options.authentication);
  host.setDiscoverySource({ current: () => discovery });
  host.setOpenAPISource({ current: () => openapi });
  host.onStop(() => {
    stopped = true;
    for (const state of states.values()) {
      clearTimeout(state.timer);
      state.unavailable.abort();
    }
    dialers.close();
  });
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
