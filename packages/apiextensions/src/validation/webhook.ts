// A webhook's client config as kube checks it (k8s.io/apiserver/pkg/util/webhook): URL, service, CA bundle.
import { X509Certificate } from 'node:crypto';
import type { FieldError } from '@kapi/apimachinery';
import { isDNS1123Subdomain, isValidPortNum } from './dns.js';
import { child, invalid, required } from './field.js';
import { goParseURL } from './go-url.js';
import type { ClientConfig } from './internal.js';

/** webhook.ValidateWebhookURL with forceHttps: an https URL with a host, no user info, fragment or query. */
export function validateWebhookURL(fldPath: string, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = goParseURL(url);
  if (typeof u === 'string') return [required(fldPath, `url must be a valid URL: ${u}${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(fldPath, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host.length === 0) errs.push(invalid(fldPath, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(invalid(fldPath, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalid(fldPath, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalid(fldPath, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService: name, namespace, port (default 443) and a path of DNS-subdomain segments. */
export function validateWebhookService(fldPath: string, service: NonNullable<ClientConfig['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(required(child(fldPath, 'name'), 'service name is required'));
  if (!service.namespace) errs.push(required(child(fldPath, 'namespace'), 'service namespace is required'));
  const port = service.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(child(fldPath, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === null || urlPath === '/' || urlPath === '') return errs;
  const pathField = child(fldPath, 'path');
  if (urlPath === '//') return [...errs, invalid(pathField, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(pathField, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

const PEM_BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/;

/**
 * Why a CA bundle (base64 of PEM) gives no root certificates, as client-go's TLS config answers
 * (`unable to load root certificates: ...`), or undefined when it holds at least one certificate.
 */
export function caBundleError(caBundle: string): string | undefined {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  if (pem.length === 0) return undefined;
  const blocks: { type: string; headers: boolean; der: Buffer }[] = [];
  let rest = pem;
  for (let m = PEM_BLOCK.exec(rest); m; rest = rest.slice(m.index + m[0].length), m = PEM_BLOCK.exec(rest)) {
    const body = m[2];
    blocks.push({ type: m[1], headers: /^[^\r\n]*:/m.test(body), der: Buffer.from(body.replace(/^[^\r\n]*:.*$/gm, ''), 'base64') });
  }
  const parses = (der: Buffer): boolean => {
    try {
      new X509Certificate(der);
      return true;
    } catch {
      return false;
    }
  };
  if (blocks.some((b) => b.type === 'CERTIFICATE' && !b.headers && parses(b.der))) return undefined;
  let reason = 'no valid certificate authority data seen';
  if (blocks.length === 0) reason = 'unable to parse bytes as PEM block';
  else {
    const bad = blocks.find((b) => b.type === 'CERTIFICATE' && !b.headers && !parses(b.der));
    if (bad) reason = 'failed to parse certificate: x509: malformed certificate';
  }
  return `unable to load root certificates: ${reason}`;
}
