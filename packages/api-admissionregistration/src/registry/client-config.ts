// A webhook's clientConfig: kube's switch in validateValidatingWebhook / validateMutatingWebhook over
// k8s.io/apiserver/pkg/util/webhook's ValidateWebhookURL and ValidateWebhookService.
import { isDNS1123Subdomain, type FieldError } from '@kapi/apimachinery';
import { parseGoURL } from './go-url.js';
import { child, invalid, required } from './errors.js';
import { isObj, isSet, obj, text } from './values.js';

const FORM = '; desired format: https://host[/path]';

/** ValidateWebhookURL(forceHttps): parses as Go does; https only, a host, no user information, fragment or query. */
export function validateWebhookURL(field: string, rawURL: string): FieldError[] {
  const u = parseGoURL(rawURL);
  if ('error' in u) return [required(field, `url must be a valid URL: ${u.error}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(field, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host.length === 0) errs.push(invalid(field, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(invalid(field, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalid(field, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalid(field, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** The path of a service reference: `/`-separated RFC 1123 subdomains. */
function validateServicePath(field: string, urlPath: string): FieldError[] {
  if (urlPath === '/' || urlPath.length === 0) return [];
  if (urlPath === '//') return [invalid(field, urlPath, 'segment[0] may not be empty')];
  const errs: FieldError[] = [];
  if (!urlPath.startsWith('/')) errs.push(invalid(field, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(field, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(field, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/**
 * ValidateWebhookService as admissionregistration calls it. kube passes (name, namespace) to a function declared
 * (namespace, name) (kubernetes/kubernetes#141353), so a missing service name is reported at `service.namespace` and
 * a missing namespace at `service.name`: kept, since clients see kube's paths.
 */
export function validateWebhookService(field: string, service: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (text(service.namespace).length === 0) errs.push(required(child(field, 'name')));
  if (text(service.name).length === 0) errs.push(required(child(field, 'namespace')));
  // Port is defaulted to 443 (a mistyped one is the schema's error).
  const port = typeof service.port === 'number' ? service.port : 443;
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    errs.push(invalid(child(field, 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (typeof service.path === 'string') errs.push(...validateServicePath(child(field, 'path'), service.path));
  return errs;
}

/** Exactly one of url and service; then that one's rules. */
export function validateClientConfig(field: string, clientConfig: unknown): FieldError[] {
  const cc = obj(clientConfig);
  const hasURL = isSet(cc.url);
  const hasService = isSet(cc.service);
  if (hasURL === hasService) return [required(field, 'exactly one of url or service is required')];
  if (hasURL) return validateWebhookURL(child(field, 'url'), text(cc.url));
  return validateWebhookService(child(field, 'service'), isObj(cc.service) ? cc.service : {});
}
