import { newBadRequest } from '@kapi/apimachinery';
import { MAX_NESTING_DEPTH, tooDeep } from './nesting.js';

interface Frame {
  /** Data items still expected (definite lengths); Infinity until the break code (indefinite lengths). */
  left: number;
  /** Items seen so far in an indefinite-length container (a map needs an even count). */
  seen: number;
  /** Major type of an indefinite-length string (its chunks must be definite strings of the same type). */
  chunksOf?: 2 | 3;
  map?: boolean;
}

/**
 * Checks that `bytes` hold exactly one well-formed CBOR data item, without recursing, before a decoder sees it:
 * nesting (arrays, maps and tags, as fxamacker/cbor counts levels) at most {@link MAX_NESTING_DEPTH}; declared
 * lengths no longer than the bytes left (so no decoder allocates for a length the body cannot have); no reserved
 * or malformed heads; nothing after the item.
 *
 * Returns the bytes without their tag heads: kube decodes an unrecognized tag to its content, and the decoder's
 * own tag extensions (value sharing builds cycles, bignums cost quadratic time, typed arrays and records build
 * non-JSON values) are not for request bodies.
 */
export function scanCbor(bytes: Uint8Array): Uint8Array {
  const fail = (what: string) => newBadRequest(`error decoding CBOR: ${what}`);
  const stack: Frame[] = [];
  const tags: [number, number][] = [];
  let pos = 0;
  let done = false;

  /** One data item finished: count it in its container, closing the containers it completes. */
  const itemDone = () => {
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        done = true;
        return;
      }
      top.seen++;
      if (top.left === Infinity) return;
      if (--top.left > 0) return;
      stack.pop();
    }
  };
  const push = (frame: Omit<Frame, 'seen'>) => {
    stack.push({ ...frame, seen: 0 });
    if (stack.length > MAX_NESTING_DEPTH) throw tooDeep('CBOR');
  };

  while (!done) {
    if (pos >= bytes.length) throw fail('unexpected EOF');
    const top = stack[stack.length - 1];
    const start = pos;
    const initial = bytes[pos++];
    if (initial === 0xff) {
      if (!top || top.left !== Infinity) throw fail('unexpected "break" code');
      if (top.map && top.seen % 2 === 1) throw fail('indefinite-length map has a key without a value');
      stack.pop();
      itemDone();
      continue;
    }
    const major = initial >> 5;
    const info = initial & 0x1f;
    let arg = info;
    if (info >= 24 && info <= 27) {
      const size = 1 << (info - 24);
      if (pos + size > bytes.length) throw fail('unexpected EOF');
      arg = 0;
      for (let i = 0; i < size; i++) arg = arg * 256 + bytes[pos++];
    } else if (info >= 28 && info <= 30) {
      throw fail(`invalid additional information ${info} for type ${major}`);
    }
    const indefinite = info === 31;
    if (top?.chunksOf !== undefined && (major !== top.chunksOf || indefinite)) {
      throw fail('wrong element type for an indefinite-length string');
    }
    const left = bytes.length - pos;
    switch (major) {
      case 0:
      case 1:
        if (indefinite) throw fail(`invalid additional information 31 for type ${major}`);
        itemDone();
        break;
      case 2:
      case 3:
        if (indefinite) {
          push({ left: Infinity, chunksOf: major });
          break;
        }
        if (arg > left) throw fail('unexpected EOF');
        pos += arg;
        itemDone();
        break;
      case 4:
      case 5: {
        if (indefinite) {
          push({ left: Infinity, map: major === 5 });
          break;
        }
        const items = major === 5 ? arg * 2 : arg;
        // every data item takes at least one byte
        if (items > left) throw fail('unexpected EOF');
        if (items === 0) itemDone();
        else push({ left: items });
        break;
      }
      case 6:
        if (indefinite) throw fail('invalid additional information 31 for type 6');
        tags.push([start, pos]);
        push({ left: 1 });
        break;
      case 7:
        if (info === 24 && arg < 32) throw fail(`invalid simple value ${arg}`);
        itemDone();
        break;
    }
  }
  if (pos !== bytes.length) throw fail('extraneous data after the data item');
  if (!tags.length) return bytes;
  const out = new Uint8Array(bytes.length - tags.reduce((n, [a, b]) => n + b - a, 0));
  let from = 0;
  let at = 0;
  for (const [a, b] of tags) {
    out.set(bytes.subarray(from, a), at);
    at += a - from;
    from = b;
  }
  out.set(bytes.subarray(from), at);
  return out;
}
