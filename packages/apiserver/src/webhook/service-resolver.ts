import type { KubeObject } from '@kapi/apimachinery';
import type { PluginHost } from '../host.js';
import type { ServiceResolver } from './client.js';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
}

const hostPort = (ip: string, port: number) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/**
 * kube's webhook service resolution with `--enable-aggregator-routing` (Kapi has no kube-proxy): an ExternalName
 * Service is its external name at the asked port; any other Service an address of its Endpoints, at the endpoint
 * port of the Service port asked for.
 */
export function serviceResolver(host: PluginHost): ServiceResolver {
  return async ({ namespace, name, port }) => {
    const services = host.registry.byKind('', 'v1', 'Service');
    const endpoints = host.registry.byKind('', 'v1', 'Endpoints');
    if (!services) return undefined;
    const service = (await host.store.find(host.systemContext(services, { namespace }), name)) as (KubeObject & { spec?: { type?: string; externalName?: string; ports?: ServicePort[] } }) | undefined;
    if (!service) throw new Error(`service "${name}" not found`);
    if (service.spec?.type === 'ExternalName') return new URL(`https://${hostPort(String(service.spec.externalName), port)}`);
    const servicePort = service.spec?.ports?.find((p) => p.port === port);
    if (!servicePort) throw new Error(`service "${name}" has no port ${port}`);
    if (!endpoints) return undefined;
    const found = (await host.store.find(host.systemContext(endpoints, { namespace }), name)) as
      | (KubeObject & { subsets?: { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }[] })
      | undefined;
    for (const subset of found?.subsets ?? []) {
      const endpointPort = subset.ports?.find((p) => (p.name ?? '') === (servicePort.name ?? '')) ?? (subset.ports?.length === 1 ? subset.ports[0] : undefined);
      const address = subset.addresses?.[0];
      if (endpointPort && address) return new URL(`https://${hostPort(address.ip, endpointPort.port)}`);
    }
    throw new Error(`service "${namespace}/${name}" has no ready endpoints`);
  };
}
