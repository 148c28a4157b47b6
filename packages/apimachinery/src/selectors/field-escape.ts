// Value escaping of field selectors, as kube's fields package: `\`, `,` and `=` are escaped with a backslash.

/** Escapes a literal value for use in a field selector (`a,b` → `a\,b`). */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

/**
 * Unescapes a field selector value. Returns kube's error message for an unknown escape sequence or an unescaped
 * `,` or `=` (kube prints the character's code point: `unescaped character in value: 61`).
 */
export function unescapeFieldSelectorValue(value: string): { value: string } | { error: string } {
  if (!/[\\,=]/.test(value)) return { value };
  let out = '';
  let inSlash = false;
  for (const ch of value) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') {
        return { error: `invalid field selector: invalid escape sequence: \\${ch}` };
      }
      out += ch;
      inSlash = false;
      continue;
    }
    if (ch === '\\') inSlash = true;
    else if (ch === ',' || ch === '=') return { error: `invalid field selector: unescaped character in value: ${ch.codePointAt(0)}` };
    else out += ch;
  }
  if (inSlash) return { error: 'invalid field selector: invalid escape sequence: \\' };
  return { value: out };
}
