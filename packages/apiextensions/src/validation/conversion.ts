// spec.conversion (validateCustomResourceConversion). Paths name the internal fields: `spec.conversion.webhookClientConfig`,
// `spec.conversion.conversionReviewVersions` (v1's `webhook.clientConfig`, `webhook.conversionReviewVersions`).
import { validateWebhookService, validateWebhookURL, type FieldError } from '@kapi/apimachinery';
import { isDNS1035Label } from './dns.js';
import { child, forbidden, index, invalid, notSupported, required } from './field.js';
import type { Conversion } from './internal.js';
import { caBundleError } from './webhook.js';

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
      else {
        const svc = cc.service!;
        errs.push(...validateWebhookService(child(ccPath, 'service'), svc.namespace ?? '', svc.name ?? '', svc.path ?? undefined, svc.port ?? 443));
      }
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
