// Where a Service reference (a webhook's clientConfig.service, an APIService's spec.service) is reached, as kube
// resolves it with --enable-aggregator-routing=true (Kapi has no kube-proxy): an ExternalName Service is
// `<externalName>:<port>`; any other Service an address of its EndpointSlices (or, without any, its Endpoints) on
// the port behind the Service port asked for.
import { parseLabelSelector, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost } from '../host.js';
import { ALL_OBJECTS } from '../registry/list.js';
import type { ServiceResolver } from './client.js';

/** An address to dial, or why there is none (the reasons and messages of kube-aggregator's Available condition). */
export type ServiceAddress = { url: URL } | { reason: string; message: string; unknown?: boolean };

interface Service extends KubeObject {
  spec?: { type?: string; externalName?: string; ports?: { name?: string; port: number }[] };
}
interface EndpointSlice extends KubeObject {
  endpoints?: { addresses?: string[]; conditions?: { ready?: boolean } }[];
  ports?: { name?: string; port?: number }[];
}
interface Endpoints extends KubeObject {
  subsets?: { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }[];
}

const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** Resolves a Service reference to the URL to dial, or says why it cannot be. */
export async function resolveServiceAddress(host: PluginHost, service: { namespace: string; name: string; port: number }): Promise<ServiceAddress> {
  const { namespace, name, port } = service;
  const entry = host.registry.byKind('', 'v1', 'Service');
  const where = `service/${name} in "${namespace}"`;
  if (!entry) return { reason: 'ServiceNotFound', message: `${where} is not present` };
  let found: Service | undefined;
  try {
    found = (await host.store.find(host.systemContext(entry, { namespace }), name)) as Service | undefined;
  } catch (err) {
    return { reason: 'ServiceAccessError', message: `${where} cannot be checked due to: ${(err as Error).message}`, unknown: true };
  }
  if (!found) return { reason: 'ServiceNotFound', message: `${where} is not present` };
  if (found.spec?.type === 'ExternalName') return { url: new URL(`https://${hostPort(String(found.spec.externalName ?? ''), port)}`) };
  const servicePort = found.spec?.ports?.find((p) => p.port === port);
  if (!servicePort) return { reason: 'ServicePortError', message: `${where} is not listening on port ${port}` };
  const portName = servicePort.name ?? '';
  try {
    const slices = await endpointSlices(host, namespace, name);
    if (slices.length > 0) {
      for (const slice of slices) {
        const target = slice.ports?.find((p) => (p.name ?? '') === portName)?.port;
        const endpoint = slice.endpoints?.find((e) => e.conditions?.ready !== false && e.addresses?.length);
        if (target && endpoint) return { url: new URL(`https://${hostPort(endpoint.addresses![0], target)}`) };
      }
      return { reason: 'MissingEndpoints', message: `endpointslices for ${where} have no addresses with port name "${portName}"` };
    }
    // No EndpointSlice (Kapi runs no controller mirroring Endpoints into slices): the Service's Endpoints.
    return await resolveEndpoints(host, where, namespace, name, portName);
  } catch (err) {
    return { reason: 'EndpointsAccessError', message: `${where} cannot be checked due to: ${(err as Error).message}`, unknown: true };
  }
}

/** The EndpointSlices of a Service (label kubernetes.io/service-name); none when the server serves no EndpointSlices. */
async function endpointSlices(host: PluginHost, namespace: string, name: string): Promise<EndpointSlice[]> {
  const entry = host.registry.byKind('discovery.k8s.io', 'v1', 'EndpointSlice');
  if (!entry) return [];
  const list = await host.store.list(host.systemContext(entry, { namespace }), {
    ...ALL_OBJECTS,
    labelSelector: parseLabelSelector(`kubernetes.io/service-name=${name}`),
  });
  return list.items as EndpointSlice[];
}

async function resolveEndpoints(host: PluginHost, where: string, namespace: string, name: string, portName: string): Promise<ServiceAddress> {
  const entry = host.registry.byKind('', 'v1', 'Endpoints');
  const found = entry ? ((await host.store.find(host.systemContext(entry, { namespace }), name)) as Endpoints | undefined) : undefined;
  if (!found) return { reason: 'EndpointsNotFound', message: `cannot find endpointslices for ${where}` };
  for (const subset of found.subsets ?? []) {
    const target = subset.ports?.find((p) => (p.name ?? '') === portName)?.port ?? (subset.ports?.length === 1 ? subset.ports[0].port : undefined);
    const address = subset.addresses?.[0]?.ip;
    if (target && address) return { url: new URL(`https://${hostPort(address, target)}`) };
  }
  return { reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name "${portName}"` };
}

/** The resolver webhook clients call (resolveServiceAddress, failing with its reason when there is no address). */
export function serviceResolver(host: PluginHost): ServiceResolver {
  return async (service) => {
    const address = await resolveServiceAddress(host, service);
    if ('url' in address) return address.url;
    throw new Error(address.message);
  };
}
