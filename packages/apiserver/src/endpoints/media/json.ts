import { isStatusError, newBadRequest } from '@kapi/apimachinery';
import { checkDecoded } from '../../limits/nesting.js';
import { duplicateJsonFields } from './duplicate-fields.js';
import { jsonBody } from './shared-json.js';
import type { MediaType, WatchFraming } from './types.js';

export const JSON_TYPE = 'application/json';

const utf8 = new TextDecoder();
const text = new TextEncoder();

/**
 * Parses a JSON text; the value's depth and numbers are checked (checkDecoded, integers JSON.parse rounded included)
 * before anything recurses over it.
 */
export function parseJson(body: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    if (isStatusError(err)) throw err;
    throw newBadRequest(`error decoding JSON: ${(err as Error).message}`);
  }
  return checkDecoded(value, 'JSON', body);
}

/** JSON watch streams: one JSON document per line (kube's default framing, also for YAML clients). */
export const jsonWatchFraming: WatchFraming = {
  contentType: JSON_TYPE,
  frame: (type, object) => text.encode(JSON.stringify({ type, object }) + '\n'),
};

/** application/json: the default for requests and responses. */
export const json: MediaType = {
  name: 'json',
  accepts: [JSON_TYPE],
  requestTypes: [JSON_TYPE],
  contentType: JSON_TYPE,
  // kube's JSON encoder ends every document with a newline (clients compare error bodies byte for byte).
  encode: (value, { pretty }) => (pretty ? JSON.stringify(value, null, 2) + '\n' : jsonBody(value)),
  decode(body) {
    const source = utf8.decode(body);
    const value = parseJson(source);
    // Asked right after decoding, before anything changes the value: its key count is the parse's own.
    return { value, duplicates: () => duplicateJsonFields(source, value) };
  },
  watch: jsonWatchFraming,
};
