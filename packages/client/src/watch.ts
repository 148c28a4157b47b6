import { ApiError, type Status } from './errors.js';
import type { WatchEvent } from './types.js';

/**
 * The events of a watch response, one JSON object per line. An ERROR event (an expired resourceVersion, say) ends the
 * stream with its Status thrown as an ApiError. Leaving the loop early cancels the request.
 */
export async function* watchEvents<T>(res: Response): AsyncGenerator<WatchEvent<T>> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line) yield parseEvent<T>(line);
      }
    }
    const rest = (buffered + decoder.decode()).trim();
    if (rest) yield parseEvent<T>(rest);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function parseEvent<T>(line: string): WatchEvent<T> {
  const event = JSON.parse(line) as { type: string; object: unknown };
  if (event.type === 'ERROR') throw new ApiError(event.object as Status);
  return event as WatchEvent<T>;
}
