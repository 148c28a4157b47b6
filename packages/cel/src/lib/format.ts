// kube's format library (library/format.go): `format.<name>()` and `format.named(name)` give a format whose
// `validate(string)` is an optional list of kube's validation messages (none when valid).
import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { isDNS1123Subdomain, isLabelKey, isLabelValue } from '@kapi/apimachinery';
import { NAMED_FORMAT, Optional } from '../opaque.js';
import { parseTimestamp } from '../time.js';
import { parseRequestURI } from './urls.js';

const { STRING } = CelScalar;
const F = NAMED_FORMAT.celType;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';

function dns1123Label(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 63) errs.push('must be no more than 63 characters');
  if (!new RegExp(`^${DNS1123_LABEL_FMT}$`).test(s)) {
    errs.push(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL_FMT}')`);
  }
  return errs;
}

function dns1035Label(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 63) errs.push('must be no more than 63 characters');
  if (!new RegExp(`^${DNS1035_LABEL_FMT}$`).test(s)) {
    errs.push(`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL_FMT}')`);
  }
  return errs;
}

/** kube's maskTrailingDash: a name prefix may end with '-' (generateName). */
const prefix = (f: (s: string) => string[]) => (s: string) => f(s.length > 1 && s.endsWith('-') ? `${s.slice(0, -1)}a` : s);

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label,
  qualifiedName: isLabelKey,
  dns1123LabelPrefix: prefix(dns1123Label),
  dns1123SubdomainPrefix: prefix(isDNS1123Subdomain),
  dns1035LabelPrefix: prefix(dns1035Label),
  labelValue: isLabelValue,
  uri: (s) => {
    try {
      parseRequestURI(s);
      return [];
    } catch (e) {
      return [(e as Error).message];
    }
  },
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (BASE64.test(s) ? [] : ['invalid base64']),
  date: (s) => (parseTimestamp(s, true) ? [] : ['invalid date']),
  datetime: (s) => (parseTimestamp(s) ? [] : ['invalid datetime']),
};

/** The format library. */
export const formatLibrary: CelFunc[] = [
  ...Object.keys(FORMATS).map((name) => celFunc(`format.${name}`, [], F, () => NAMED_FORMAT.make(name))),
  celFunc('format.named', [STRING], Optional.celType, (name) =>
    Object.hasOwn(FORMATS, name) ? Optional.of(NAMED_FORMAT.make(name)) : Optional.none(),
  ),
  celMethod('validate', F, [STRING], Optional.celType, function (s) {
    const errs = FORMATS[NAMED_FORMAT.text(this)](s);
    return errs.length === 0 ? Optional.none() : Optional.of(errs as never);
  }),
];
