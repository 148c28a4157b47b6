import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GZIP_THRESHOLD_BYTES } from '../compression.js';
import { replyRead, type RequestScope } from './scope.js';

/** A read's scope as replyRead sees it: the request's Accept-Encoding and whether APIResponseCompression is on. */
const scope = (acceptEncoding: string | undefined, compression = true) =>
  ({
    request: new Request('http://kapi.test/api/v1/configmaps', { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }),
    features: { compression },
  }) as unknown as RequestScope;
const body = (bytes: number) => 'x'.repeat(bytes);

async function answer(s: RequestScope, text: string) {
  const res = replyRead(s, { body: text, contentType: 'application/json' });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  return { encoding, vary: res.headers.get('vary'), text: new TextDecoder().decode(encoding === 'gzip' ? gunzipSync(bytes) : bytes) };
}

describe('read responses: gzip (APIResponseCompression)', () => {
  it('compresses a body above the threshold (128 KiB) for a client that accepts gzip; the content is unchanged', async () => {
    const text = body(GZIP_THRESHOLD_BYTES + 1);
    expect(await answer(scope('gzip'), text)).toEqual({ encoding: 'gzip', vary: 'Accept-Encoding', text });
    expect((await answer(scope('deflate, gzip;q=0.5'), text)).encoding).toBe('gzip');
  });

  it('sends a body up to the threshold as it is, as kube does', async () => {
    for (const size of [10, GZIP_THRESHOLD_BYTES - 1, GZIP_THRESHOLD_BYTES]) {
      const text = body(size);
      expect([size, await answer(scope('gzip'), text)]).toEqual([size, { encoding: null, vary: 'Accept-Encoding', text }]);
    }
  });

  it('never compresses for a client that does not accept gzip, nor with the gate off', async () => {
    const text = body(GZIP_THRESHOLD_BYTES * 2);
    for (const accept of [undefined, '', 'identity', 'deflate, br', 'gzip;q=0']) {
      expect([accept, (await answer(scope(accept), text)).encoding]).toEqual([accept, null]);
    }
    expect((await answer(scope('gzip', false), text)).encoding).toBeNull();
  });

  it('counts bytes, not characters', async () => {
    // Two bytes per character: above the threshold in bytes while below it in characters.
    const text = 'é'.repeat(GZIP_THRESHOLD_BYTES / 2 + 1);
    expect((await answer(scope('gzip'), text)).encoding).toBe('gzip');
  });
});
