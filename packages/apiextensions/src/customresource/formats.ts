import { isIP, isIPv4, isIPv6 } from 'node:net';

const DNS_LABEL = '[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const HOSTNAME = new RegExp(`^${DNS_LABEL}(\\.${DNS_LABEL})*$`);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/;
const DURATION = /^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))*$|^0$/;

function cidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const family = isIP(ip);
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
}

function uri(value: string): boolean {
  try {
    return !!new URL(value).protocol;
  } catch {
    return value.startsWith('/');
  }
}

/**
 * The string formats kube checks in custom resources (apiextensions-apiserver's supported formats; go-openapi's
 * checks); other formats (int32, int64, password, ...) and unknown ones are accepted as any value, as kube does.
 */
export const STRING_FORMATS: Record<string, (value: string) => boolean> = {
  hostname: (v) => v.length <= 253 && HOSTNAME.test(v),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr,
  mac: (v) => MAC.test(v),
  uuid: (v) => UUID.test(v),
  uri,
  email: (v) => /^[^@\s]+@[^@\s]+$/.test(v),
  byte: (v) => BASE64.test(v),
  date: (v) => DATE.test(v),
  'date-time': (v) => DATE_TIME.test(v),
  datetime: (v) => DATE_TIME.test(v),
  duration: (v) => DURATION.test(v),
};
