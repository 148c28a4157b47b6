// k8s.io/apiserver/pkg/util/webhook's validation of a webhook's client config (conversion and admission webhooks,
// APIServices): the URL and the Service reference, with kube's paths and messages.
import type { FieldError } from './types.js';
import { isDNS1123Subdomain } from '../selectors/label-validation.js';
import { parseGoURL } from './go-url.js';
import { fieldChild as child, fieldInvalid as invalid, fieldRequired } from '../errors/field-constructors.js';

const FORM = '; desired format: https://host[/path]';

/** kube's ValidateWebhookURL with forceHttps: parses as Go does; https only, a host, no user information, fragment or query. */
export function validateWebhookURL(field: string, rawURL: string): FieldError[] {
  const u = parseGoURL(rawURL);
  if ('error' in u) return [fieldRequired(field, `url must be a valid URL: ${u.error}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(field, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host.length === 0) errs.push(invalid(field, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(invalid(field, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalid(field, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalid(field, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * kube's ValidateWebhookService(fldPath, namespace, name, path, port): name and namespace required, the port
 * 1-65535, the path `/`-separated DNS-1123 subdomains. Callers pass what kube's callers pass (admissionregistration
 * swaps name and namespace, kubernetes/kubernetes#141353, and clients see kube's paths).
 */
export function validateWebhookService(field: string, namespace: string, name: string, path: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(fieldRequired(child(field, 'name'), 'service name is required'));
  if (!namespace) errs.push(fieldRequired(child(field, 'namespace'), 'service namespace is required'));
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    errs.push(invalid(child(field, 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (path === undefined || path === '/' || path === '') return errs;
  const pathField = child(field, 'path');
  if (path === '//') return [...errs, invalid(pathField, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalid(pathField, path, "must start with a '/'"));
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(pathField, path, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(pathField, path, `segment[${i}]: ${failure}`));
  });
  return errs;
}
