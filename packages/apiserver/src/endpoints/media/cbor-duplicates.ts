/**
 * Field paths that a CBOR data item repeats within one map (kube style: `metadata.name`, `spec.ports[0].port`).
 * cbor-x keeps the last value silently, so this walks the encoding itself: definite and indefinite lengths,
 * tags, and text or other keys. Malformed input yields what was found so far (decoding reports the error).
 */
export function duplicateCborFields(bytes: Uint8Array): string[] {
  const found: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  const argument = (info: number): number => {
    if (info < 24) return info;
    if (info === 24) return bytes[i++];
    if (info === 25) return (i += 2), view.getUint16(i - 2);
    if (info === 26) return (i += 4), view.getUint32(i - 4);
    if (info === 27) return (i += 8), Number(view.getBigUint64(i - 8));
    return -1; // 31: indefinite
  };
  const text = (): string | undefined => {
    const head = bytes[i++];
    const major = head >> 5;
    if (major !== 3) {
      i--;
      skip('');
      return undefined;
    }
    const length = argument(head & 0x1f);
    if (length < 0) {
      let out = '';
      while (bytes[i] !== 0xff) out += text() ?? '';
      i++;
      return out;
    }
    const value = new TextDecoder().decode(bytes.subarray(i, i + length));
    i += length;
    return value;
  };
  const skip = (path: string): void => {
    if (i >= bytes.length) throw new Error('truncated');
    const head = bytes[i++];
    const major = head >> 5;
    const length = argument(head & 0x1f);
    switch (major) {
      case 2:
      case 3:
        if (length < 0) {
          while (bytes[i] !== 0xff) skip(path);
          i++;
        } else i += length;
        return;
      case 4:
        for (let n = 0; length < 0 ? bytes[i] !== 0xff : n < length; n++) skip(`${path}[${n}]`);
        if (length < 0) i++;
        return;
      case 5: {
        const seen = new Set<string>();
        for (let n = 0; length < 0 ? bytes[i] !== 0xff : n < length; n++) {
          const key = text();
          const child = key === undefined ? path : path ? `${path}.${key}` : key;
          if (key !== undefined) {
            if (seen.has(key)) found.push(child);
            seen.add(key);
          }
          skip(child);
        }
        if (length < 0) i++;
        return;
      }
      case 6:
        skip(path);
        return;
      default:
        return;
    }
  };
  try {
    skip('');
  } catch {
    // malformed: the decoder answers it
  }
  return found;
}
