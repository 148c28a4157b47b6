// resource.Quantity as Go's %#v prints it: kube's field.Invalid given a Quantity value (not a pointer, so not a
// fmt.Stringer) prints the struct, as HorizontalPodAutoscaler and LimitRange validation messages show.

const QUANTITY_SUFFIX: Record<string, { format: string; exponent: number }> = {
  '': { format: 'DecimalSI', exponent: 0 },
  n: { format: 'DecimalSI', exponent: -9 },
  u: { format: 'DecimalSI', exponent: -6 },
  m: { format: 'DecimalSI', exponent: -3 },
  k: { format: 'DecimalSI', exponent: 3 },
  M: { format: 'DecimalSI', exponent: 6 },
  G: { format: 'DecimalSI', exponent: 9 },
  T: { format: 'DecimalSI', exponent: 12 },
  P: { format: 'DecimalSI', exponent: 15 },
  E: { format: 'DecimalSI', exponent: 18 },
  Ki: { format: 'BinarySI', exponent: 10 },
  Mi: { format: 'BinarySI', exponent: 20 },
  Gi: { format: 'BinarySI', exponent: 30 },
  Ti: { format: 'BinarySI', exponent: 40 },
  Pi: { format: 'BinarySI', exponent: 50 },
  Ei: { format: 'BinarySI', exponent: 60 },
};
const INT64_MAX = (1n << 63n) - 1n;

const goQuantityStruct = (value: bigint, scale: number, s: string, format: string, dec = '(*inf.Dec)(nil)') =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:${dec}}, s:${JSON.stringify(s)}, Format:${JSON.stringify(format)}}`;

/**
 * `%#v` of the Quantity resource.ParseQuantity makes of `input` (as json.Unmarshal hands it the text): its int64 fast
 * path exactly, with the text cached when it is canonical. Values that need an inf.Dec print a pointer kube's output
 * shows as an address, which no one can reproduce; it is shown as `(*inf.Dec)(…)` here. The server hands the strategy
 * quantities already in canonical form, so a client's non-canonical text (`-0.5`, `-2000`) prints as its canonical
 * form would (`-500m`, `-2k`), where kube prints the parse of the text sent (`value:-5, scale:-1, s:""`).
 */
export function goQuantityRepr(input: string | number): string {
  const str = (typeof input === 'number' ? String(input) : input).trim();
  if (str === '0') return goQuantityStruct(0n, 0, '0', 'DecimalSI');
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(str);
  const positive = m?.[1] !== '-';
  const numPart = m?.[2] || '0';
  const denom = m?.[3] ?? '';
  const suffix = m?.[4] ?? '';
  let format: string;
  let exponent: number;
  const exp = /^[eE]([-+]?\d+)$/.exec(suffix);
  if (exp) {
    format = 'DecimalExponent';
    exponent = Number(exp[1]);
  } else {
    ({ format, exponent } = QUANTITY_SUFFIX[suffix] ?? { format: 'DecimalSI', exponent: 0 });
  }
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - numPart.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (numPart.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = numPart + denom;
      const value = BigInt(shifted);
      const product = value * mantissa;
      if (value <= INT64_MAX && product <= INT64_MAX) {
        const result = positive ? product : -product;
        const canonical =
          format === 'BinarySI' ? exponent % 10 === 0 && (value & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return goQuantityStruct(result, scale, canonical ? str : '', format);
      }
    }
  }
  return `resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(…)}, s:"", Format:${JSON.stringify(format)}}`;
}
