// kube's format library (library/format.go): `format.<name>()` and `format.named(name)` give a format whose
// `validate(string)` is an optional list of kube's validation messages (none when valid).
import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isLabelKey, isLabelValue, maskTrailingDash } from '@kapi/apimachinery';
import { NAMED_FORMAT, Optional } from '../opaque.js';
import { parseTimestamp } from '../time.js';
import { parseRequestURI } from './urls.js';

const { STRING } = CelScalar;
const F = NAMED_FORMAT.celType;

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isLabelKey,
  // kube's NameIsDNS…(s, true): the name rules for a prefix, through maskTrailingDash.
  dns1123LabelPrefix: (s) => isDNS1123Label(maskTrailingDash(s)),
  dns1123SubdomainPrefix: (s) => isDNS1123Subdomain(maskTrailingDash(s)),
  dns1035LabelPrefix: (s) => isDNS1035Label(maskTrailingDash(s)),
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
