// How kube prints one JSONPath match as text (client-go jsonpath PrintResults): maps and lists as Go's json.Marshal
// writes them, scalars as fmt.Fprint does, and a JSON null as template's "<no value>".
import { goJSONEscape } from '@kapi/apimachinery';

/** Go's fmt %v of a float64: shortest digits, exponent form below 1e-4 and from 1e6 (`1.5e+06`). */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, expText] = value.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(value);
}

/** A JSON number as kube's unstructured decoding sees it: integers are int64, anything else float64. */
function goNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? BigInt(value).toString() : goFloat(value);
}

/** Go's json.Marshal of decoded JSON: object keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJSON(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJSONEscape(JSON.stringify(value));
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goJSON).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${goJSON(k)}:${goJSON(v)}`).join(',')}}`;
}

/** One JSONPath match printed as kube prints it for a string column. */
export function jsonPathText(value: unknown): string {
  if (value === null || value === undefined) return '<no value>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goJSON(value);
}
