import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition as validate, validateCustomResourceDefinitionUpdate as validateUpdate } from './index.js';
import { errorText, widgetCRD } from './testutil.js';

const withConversion = (conversion: object): any => {
  const crd = widgetCRD();
  crd.spec.conversion = conversion;
  return crd;
};
const texts = (conversion: object): string[] => validate(withConversion(conversion)).map(errorText);
const webhook = (clientConfig: object, versions = ['v1']): object => ({ strategy: 'Webhook', webhook: { conversionReviewVersions: versions, clientConfig } });
const CC = 'spec.conversion.webhookClientConfig';
const FORM = '; desired format: https://host[/path]';

describe('conversion', () => {
  it('accepts None and a webhook by url or service', () => {
    expect(texts({ strategy: 'None' })).toEqual([]);
    expect(texts(webhook({ url: 'https://convert.example.com/widgets' }))).toEqual([]);
    expect(texts(webhook({ service: { namespace: 'ns', name: 'svc', path: '/convert', port: 8443 } }, ['v1beta1', 'v1']))).toEqual([]);
  });

  it('strategy is None or Webhook', () => {
    expect(texts({ strategy: 'Magic' })).toEqual(['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
  });

  it('a webhook needs a client config and ConversionReview versions', () => {
    expect(texts({ strategy: 'Webhook' })).toEqual([
      `${CC}: Required value: required when strategy is set to Webhook`,
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
  });

  it('exactly one of url and service', () => {
    expect(texts(webhook({ url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } }))).toEqual([
      `${CC}: Required value: exactly one of url or service is required`,
    ]);
  });

  it('the url is https with a host, without user, query or fragment', () => {
    expect(texts(webhook({ url: 'http://user:pw@a.example.com/x?y=1#z' }))).toEqual([
      `${CC}.url: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`,
      `${CC}.url: Invalid value: "user:pw": user information is not permitted in the URL`,
      `${CC}.url: Invalid value: "z": fragments are not permitted in the URL`,
      `${CC}.url: Invalid value: "y=1": query parameters are not permitted in the URL`,
    ]);
    expect(texts(webhook({ url: 'https:///path' }))).toEqual([`${CC}.url: Invalid value: "": host must be specified${FORM}`]);
  });

  it('the url parses as Go parses it', () => {
    expect(texts(webhook({ url: '://example.com' }))).toEqual([
      `${CC}.url: Required value: url must be a valid URL: parse "://example.com": missing protocol scheme${FORM}`,
    ]);
    expect(texts(webhook({ url: 'https://example.com:port/' }))).toEqual([
      `${CC}.url: Required value: url must be a valid URL: parse "https://example.com:port/": invalid port ":port" after host${FORM}`,
    ]);
  });

  it('the service has a name, namespace, valid port and path', () => {
    expect(texts(webhook({ service: { namespace: '', name: '', port: 70000, path: 'convert//Now' } }))).toEqual([
      `${CC}.service.name: Required value: service name is required`,
      `${CC}.service.namespace: Required value: service namespace is required`,
      `${CC}.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive`,
      `${CC}.service.path: Invalid value: "convert//Now": must start with a '/'`,
      `${CC}.service.path: Invalid value: "convert//Now": segment[1] may not be empty`,
      `${CC}.service.path: Invalid value: "convert//Now": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it('ConversionReview versions include v1 or v1beta1, once each', () => {
    expect(validate(withConversion(webhook({ url: 'https://a.example.com' }, ['v2', 'v2'])))).toMatchObject([
      { type: 'FieldValueInvalid', field: 'spec.conversion.conversionReviewVersions[1]', badValue: 'v2', message: 'duplicate version' },
      { type: 'FieldValueInvalid', field: 'spec.conversion.conversionReviewVersions', badValue: ['v2', 'v2'], message: 'must include at least one of v1, v1beta1' },
    ]);
  });

  it('None allows no webhook', () => {
    expect(texts({ strategy: 'None', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://a.example.com' } } })).toEqual([
      `${CC}: Forbidden: should not be set when strategy is not set to Webhook`,
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
  });

  it('the CA bundle is checked on updates of an Established CRD only', () => {
    const bad = Buffer.from('not a certificate').toString('base64');
    const crd = withConversion(webhook({ url: 'https://a.example.com', caBundle: bad }));
    expect(validate(crd)).toEqual([]);
    const old = withConversion(webhook({ url: 'https://a.example.com' }));
    old.status.conditions = [{ type: 'Established', status: 'True' }];
    crd.status = old.status;
    expect(validateUpdate(crd, old).map(errorText)).toEqual([
      `${CC}.caBundle: Invalid value: "${bad}": unable to load root certificates: unable to parse bytes as PEM block`,
    ]);
    old.status.conditions = [];
    expect(validateUpdate(crd, old)).toEqual([]);
  });
});
