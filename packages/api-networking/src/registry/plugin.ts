import { age, at, formatLabelSelector, listAt, str, type KubeObject, type TablePrinter, type TypeDefaulter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

/** formatHosts: the rules' hosts (`*` for a rule without one), three at most, then ` + N more...`. */
function ingressHosts(obj: KubeObject): string {
  const hosts = listAt(obj, 'spec.rules').map((r) => str(at(r, 'host')) || '*');
  if (hosts.length === 0) return '*';
  return hosts.length > 3 ? `${hosts.slice(0, 3).join(',')} + ${hosts.length - 3} more...` : hosts.join(',');
}

const loadBalancerAddresses = (obj: KubeObject): string =>
  listAt(obj, 'status.loadBalancer.ingress')
    .map((i) => str(at(i, 'ip')) || str(at(i, 'hostname')))
    .filter(Boolean)
    .join(',');

const ingress: TablePrinter = {
  cells: {
    Class: (obj) => str(at(obj, 'spec.ingressClassName')) || '<none>',
    Hosts: ingressHosts,
    Address: loadBalancerAddresses,
    Ports: (obj) => (listAt(obj, 'spec.tls').length > 0 ? '80, 443' : '80'),
    Age: age,
  },
};

const ingressClass: TablePrinter = {
  cells: {
    Controller: (obj) => str(at(obj, 'spec.controller')),
    Parameters: (obj) => {
      const p = at(obj, 'spec.parameters');
      if (!p) return '<none>';
      const g = str(at(p, 'apiGroup'));
      return `${str(at(p, 'kind'))}${g ? `.${g}` : ''}/${str(at(p, 'name'))}`;
    },
    Age: age,
  },
};

/** printIPAddress's PARENTREF: `<resource>[.<group>][/<namespace>]/<name>`. */
function parentRef(obj: KubeObject): string {
  const ref = at(obj, 'spec.parentRef');
  if (!ref) return '<none>';
  const g = str(at(ref, 'group'));
  const ns = str(at(ref, 'namespace'));
  return `${str(at(ref, 'resource'))}${g ? `.${g}` : ''}${ns ? `/${ns}` : ''}/${str(at(ref, 'name'))}`.toLowerCase();
}

/** SetDefaults_NetworkPolicy: Ingress always, Egress too when the policy has egress rules. */
const networkPolicySpec: TypeDefaulter = (spec) => {
  if (Array.isArray(spec.policyTypes) && spec.policyTypes.length) return;
  spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length ? ['Ingress', 'Egress'] : ['Ingress'];
};

/** The networking.k8s.io group as a server installs it: its kinds' table printers and NetworkPolicy's defaulter. */
export const plugin: GroupPlugin = {
  definition: group,
  printers: {
    Ingress: ingress,
    IngressClass: ingressClass,
    NetworkPolicy: { cells: { 'Pod-Selector': (obj) => formatLabelSelector(at(obj, 'spec.podSelector')), Age: age } },
    IPAddress: { cells: { ParentRef: parentRef } },
    ServiceCIDR: { cells: { CIDRs: (obj) => listAt(obj, 'spec.cidrs').map(str).join(','), Age: age } },
  },
  defaulters: { 'networking.k8s.io/v1/NetworkPolicySpec': networkPolicySpec },
};
