import { BlockList, isIP } from 'node:net';
import { fieldInvalid, type FieldError } from '@kapi/apimachinery';

/** kube's message for a value that is no IP address (k8s.io/apimachinery validation, IsValidIP). */
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const blocks = (...subnets: [string, number, 'ipv4' | 'ipv6'][]): BlockList => {
  const list = new BlockList();
  for (const [address, prefix, family] of subnets) list.addSubnet(address, prefix, family);
  return list;
};

const LOOPBACK = blocks(['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']);
const LINK_LOCAL = blocks(['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']);
// Go's IsLinkLocalMulticast: 224.0.0.0/24, and IPv6 ff02::/16 with any flags (ff02::, ff12::, ... ff f2::).
const LINK_LOCAL_MULTICAST = blocks(['224.0.0.0', 24, 'ipv4'], ...Array.from({ length: 16 }, (_, i) => [`ff${i.toString(16)}2::`, 16, 'ipv6'] as [string, number, 'ipv6']));

const family = (ip: string) => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/**
 * kube's ValidateNonSpecialIP (pkg/apis/core/validation): an address a Service's external IPs (or an endpoint) may
 * hold: a valid IP that is not unspecified, loopback, link-local or link-local multicast.
 */
export function validateNonSpecialIP(ip: string, field: string): FieldError[] {
  if (!isIP(ip)) return [fieldInvalid(field, ip, INVALID_IP)];
  const errs: FieldError[] = [];
  const f = family(ip);
  if (ip === '0.0.0.0' || /^[0:]+$/.test(ip) || ip === '::ffff:0.0.0.0') errs.push(fieldInvalid(field, ip, `may not be unspecified (${ip})`));
  if (LOOPBACK.check(ip, f)) errs.push(fieldInvalid(field, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (LINK_LOCAL.check(ip, f)) errs.push(fieldInvalid(field, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (LINK_LOCAL_MULTICAST.check(ip, f)) errs.push(fieldInvalid(field, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}
