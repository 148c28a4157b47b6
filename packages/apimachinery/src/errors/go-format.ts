// Go's fmt verbs as kube's messages use them, so that our messages read byte for byte like kube-apiserver's.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** Go's `%q` of a string (strconv.Quote): double-quoted, with Go escapes for control and unprintable characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x80 || PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/**
 * Go's `%v` of a number. An integral value prints as an integer, as Go prints the int64 and int32 fields that kube's
 * numbers almost always are. Any other value prints as a float64 does (strconv 'g', shortest): exponent form when the
 * exponent is below -4 or from 6 up (`1e-05`, `1.2345675e+06`), as are integral values from 1e21 up (`1e+21`).
 */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/**
 * Go's `%#v` of a []string, as kube prints list values in selector errors: `[]string{"a", "b"}`, `[]string(nil)`;
 * `type` names another string type (`core.IPFamily`: `[]core.IPFamily{"IPv4"}`).
 */
export function goStringSlice(values: readonly string[] | undefined, type = 'string'): string {
  if (values === undefined) return `[]${type}(nil)`;
  return `[]${type}{${values.map(goQuote).join(', ')}}`;
}

/**
 * Go's `%#v` of a map[string]string (keys sorted, as fmt prints maps), as kube prints label maps in field errors:
 * `map[string]string{"app":"web", "tier":"db"}`, `map[string]string(nil)` when there is none.
 */
export function goStringMap(map: Readonly<Record<string, unknown>> | undefined | null): string {
  if (!map) return 'map[string]string(nil)';
  const entries = Object.keys(map).sort().map((k) => `${goQuote(k)}:${goQuote(String(map[k] ?? ''))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/**
 * Go's encoding/json HTML-safe escaping of JSON text (json.Marshal's default): `<`, `>`, `&`, U+2028 and U+2029
 * as `\u003c` and the like. They can only stand inside strings, so JSON.stringify's text escapes as Go's would.
 */
export const goJSONEscape = (json: string): string =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A value kube's messages print with Go's `%#v` (a Go struct, say `core.ServicePort{Name:"", ...}`), which has no
 * JSON form: a field error's `badValue` of this class is printed as `text`, as it is.
 */
export class GoValue {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}
