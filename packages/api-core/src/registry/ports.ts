import { fieldInvalid, type FieldError } from '@kapi/apimachinery';

/** kube's supportedPortProtocols, as NotSupported lists them (sorted). */
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** kube's IsValidPortNum as a field error on `field`: none for a port number of 1 to 65535. */
export function portNumberErrors(field: string, value: unknown): FieldError[] {
  const valid = Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535;
  return valid ? [] : [fieldInvalid(field, value ?? 0, 'must be between 1 and 65535, inclusive')];
}
