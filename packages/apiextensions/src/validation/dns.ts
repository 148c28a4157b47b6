// kube's name checks (k8s.io/apimachinery/pkg/util/validation) with their exact messages.
export { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '@kapi/apimachinery';

