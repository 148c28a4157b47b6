import { age, at, int, listAt, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

const firstThree = (items: string[]): string =>
  items.length > 3 ? `${items.slice(0, 3).join(',')} + ${items.length - 3} more...` : items.join(',');

/** formatDiscoveryPorts: the port numbers (`<unset>` for a port without one), three at most. */
function ports(obj: KubeObject): string {
  const list = listAt(obj, 'ports');
  if (list.length === 0) return '<unset>';
  return firstThree(list.map((p) => (at(p, 'port') === undefined ? '<unset>' : String(int(at(p, 'port'))))));
}

/** formatDiscoveryEndpoints: the endpoints' addresses, three at most; `<unset>` without any. */
function endpoints(obj: KubeObject): string {
  const addresses = listAt(obj, 'endpoints').flatMap((e) => listAt(e, 'addresses').map(str));
  return addresses.length === 0 ? '<unset>' : firstThree(addresses);
}

/** The discovery.k8s.io group as a server installs it: the EndpointSlice's table printer. */
export const plugin: GroupPlugin = {
  definition: group,
  printers: { EndpointSlice: { cells: { AddressType: (obj) => str(at(obj, 'addressType')), Ports: ports, Endpoints: endpoints, Age: age } } },
};
