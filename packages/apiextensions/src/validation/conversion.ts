// spec.conversion (validateCustomResourceConversion), with kube's webhook client config checks
// (k8s.io/apiserver/pkg/util/webhook). Paths name the internal fields: `spec.conversion.webhookClientConfig`,
// `spec.conversion.conversionReviewVersions` (v1's `webhook.clientConfig`, `webhook.conversionReviewVersions`).
import { X509Certificate } from 'node:crypto';
import type { FieldError } from '@kapi/apimachinery';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from './dns.js';
import { child, forbidden, index, invalid, notSupported, required } from './field.js';
import { goParseURL } from './go-url.js';
import type { ClientConfig, Conversion } from './internal.js';

/** The ConversionReview versions this server (and the one before it) understands. */
export const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** Whether a list names an accepted ConversionReview version, or is empty. */
export const hasValidConversionReviewVersionOrEmpty = (versions: readonly string[] | undefined): boolean =>
  !versions?.length || versions.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v));

function validateConversionReviewVersions(versions: readonly string[] | undefined, requireRecognized: boolean, fldPath: string): FieldError[] {
  if (!versions?.length) return [required(fldPath)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(fldPath, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(index(fldPath, i), v, msg));
    if (ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) {
    errs.push(invalid(fldPath, versions, `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

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

/**
 * spec.conversion: strategy None or Webhook; a webhook needs a client config (exactly one of url or service) and
 * ConversionReview versions naming v1 or v1beta1; None allows neither. The CA bundle is checked only when
 * `allowInvalidCABundle` is false (an update of an Established CRD whose bundle was valid).
 */
export function validateConversion(
  conversion: Conversion | undefined,
  requireRecognizedVersion: boolean,
  allowInvalidCABundle: boolean,
  fldPath: string,
): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategies = ['None', 'Webhook'];
  if (!conversion.strategy) errs.push(required(child(fldPath, 'strategy')));
  else if (!strategies.includes(conversion.strategy)) errs.push(notSupported(child(fldPath, 'strategy'), conversion.strategy, strategies));
  const ccPath = child(fldPath, 'webhookClientConfig');
  if (conversion.strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig;
    if (!cc) {
      errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    } else {
      const hasURL = cc.url !== undefined && cc.url !== null;
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasURL === hasService) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(child(ccPath, 'url'), cc.url!));
      else errs.push(...validateWebhookService(child(ccPath, 'service'), cc.service!));
      if (cc.caBundle && !allowInvalidCABundle) {
        const err = caBundleError(cc.caBundle);
        if (err) errs.push(invalid(child(ccPath, 'caBundle'), cc.caBundle, err));
      }
    }
    errs.push(...validateConversionReviewVersions(conversion.conversionReviewVersions, requireRecognizedVersion, child(fldPath, 'conversionReviewVersions')));
  } else {
    if (conversion.webhookClientConfig) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions?.length) {
      errs.push(forbidden(child(fldPath, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}
