import { isAlreadyExists, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, ResourceEntry } from '@kapi/apiserver';
import type { Cidr } from './cidr.js';

/** Where clients reach the API server: the `kubernetes` Service's endpoint (kube's --advertise-address and port). */
export interface ApiServerEndpoint {
  address: string;
  port: number;
}

/**
 * What kube-apiserver creates at start for the cluster's own API (its bootstrap controller and the default
 * ServiceCIDR controller): the `kubernetes` ServiceCIDR with `--service-cluster-ip-range`, the `kubernetes`
 * Service in `default` on the range's first address (port 443 to the server's port), and its Endpoints and
 * EndpointSlice at the server's address. Objects that exist are left as they are.
 */
export async function bootstrapKubernetesService(host: PluginHost, cidr: Cidr, firstAddress: string | undefined, endpoint: ApiServerEndpoint | undefined): Promise<void> {
  const ctx = (entry: ResourceEntry, namespace: string) => host.systemContext(entry, { namespace });
  // Looked up first: a restart finds them all and validates (and compiles validators for) none.
  const ensure = async (entry: ResourceEntry | undefined, namespace: string, obj: KubeObject) => {
    if (!entry || (await host.store.find(ctx(entry, namespace), String(obj.metadata?.name)))) return;
    try {
      await host.store.create(ctx(entry, namespace), obj);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  };
  const { registry } = host;
  await ensure(registry.byKind('networking.k8s.io', 'v1', 'ServiceCIDR'), '', {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    metadata: { name: 'kubernetes' },
    spec: { cidrs: [cidr.text] },
  });
  const targetPort = endpoint?.port ?? 443;
  await ensure(registry.byKind('', 'v1', 'Service'), 'default', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      ...(firstAddress ? { clusterIP: firstAddress } : {}),
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort }],
      sessionAffinity: 'None',
    },
  });
  if (!endpoint) return;
  await ensure(registry.byKind('', 'v1', 'Endpoints'), 'default', {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: endpoint.address }], ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }] }],
  });
  await ensure(registry.byKind('discovery.k8s.io', 'v1', 'EndpointSlice'), 'default', {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [endpoint.address], conditions: { ready: true } }],
    ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }],
  });
}
