import { goFloat, goQuote, GoValue } from '@kapi/apimachinery';

/** Go's `%#v` of a value decoded from JSON into interface{}, as kube prints a duplicate or a bad value. */
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  const map = value as Record<string, unknown>;
  return `map[string]interface {}{${Object.keys(map).sort().map((k) => `${goQuote(k)}:${goSyntax(map[k])}`).join(', ')}}`;
}

/** A bad value as kube prints it: strings and numbers as JSON shows them, anything else as Go prints it (`%#v`). */
export const goBadValue = (value: unknown) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : new GoValue(goSyntax(value)));
