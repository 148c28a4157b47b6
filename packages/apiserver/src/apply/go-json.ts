// JSON text as Go writes it (encoding/json and json-iterator's ConfigCompatibleWithStandardLibrary, which
// structured-merge-diff uses for fieldsV1): object keys sorted, HTML-unsafe characters escaped, control characters
// as \u00XX except \n, \r and \t. Needed where bytes matter: fieldsV1 in Protobuf, `k:`/`v:` keys, manager ids.

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** A string as a Go JSON string literal (with HTML escaping, as both encoders do by default). */
export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${hex4(c)}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Any JSON value as Go marshals an `interface{}`: maps with sorted keys, no insignificant whitespace. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort(compareStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(obj[k])}`).join(',')}}`;
}

/** Go's strings.Compare: byte order of the UTF-8 encodings, which is code point order (not UTF-16 unit order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP code unit in code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
