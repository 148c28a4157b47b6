import type { Reader } from 'protobufjs';

/** Reads a field tag. Field number 0 is illegal, as in Go's generated Unmarshal (`illegal tag 0`). */
export function readTag(r: Reader): number {
  const t = r.uint32();
  if (t >>> 3 === 0) throw new Error(`illegal tag 0 (wire type ${t & 7})`);
  return t;
}
