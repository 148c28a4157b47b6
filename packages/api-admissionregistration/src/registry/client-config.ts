// A webhook's clientConfig: kube's switch in validateValidatingWebhook / validateMutatingWebhook over
// k8s.io/apiserver/pkg/util/webhook's ValidateWebhookURL and ValidateWebhookService.
import { validateWebhookService, validateWebhookURL, type FieldError } from '@kapi/apimachinery';
import { child, invalid, required } from './errors.js';
import { isObj, isSet, obj, text } from './values.js';

/** Exactly one of url and service; then that one's rules. */
export function validateClientConfig(field: string, clientConfig: unknown): FieldError[] {
  const cc = obj(clientConfig);
  const hasURL = isSet(cc.url);
  const hasService = isSet(cc.service);
  if (hasURL === hasService) return [required(field, 'exactly one of url or service is required')];
  if (hasURL) return validateWebhookURL(child(field, 'url'), text(cc.url));
  const service = isObj(cc.service) ? cc.service : {};
  // kube passes (name, namespace) to ValidateWebhookService(namespace, name) (kubernetes/kubernetes#141353): a
  // missing name is reported at `service.namespace`, a missing namespace at `service.name`; clients see kube's paths.
  const port = typeof service.port === 'number' ? service.port : 443;
  return validateWebhookService(child(field, 'service'), text(service.name), text(service.namespace), typeof service.path === 'string' ? service.path : undefined, port);
}
