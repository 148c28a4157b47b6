// kube's name checks (k8s.io/apimachinery/pkg/util/validation) with their exact messages.
export { isDNS1123Subdomain } from '@kapi/apimachinery';

/** kube's RegexError: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')` (the double space is kube's). */
const regexError = (msg: string, fmt: string, ...examples: string[]): string =>
  `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035Label = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** utilvalidation.IsDNS1035Label: the problems with `value` as a DNS-1035 label (`[]` when valid). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** utilvalidation.IsValidPortNum. */
export const isValidPortNum = (port: number): string[] =>
  Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`);

/** utilvalidation.IsDNS1123Label. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(value)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}
