// kube's name checks (k8s.io/apimachinery/pkg/util/validation) with their exact messages.
export { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '@kapi/apimachinery';

/** utilvalidation.IsValidPortNum. */
export const isValidPortNum = (port: number): string[] =>
  Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];

