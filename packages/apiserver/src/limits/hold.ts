import type { Context } from 'hono';
import { contentLengthOf, onBodyEnd } from '../endpoints/response-end.js';

/**
 * Runs the rest of the chain holding a seat (an in-flight slot, an APF seat) and gives it back once the request is
 * answered, as kube's filters hold theirs for the whole of ServeHTTP: a response streamed in slices (a big list)
 * keeps its seat until its last byte is written or the client goes away. A watch gives its seat back once its
 * stream has begun (kube's APF holds a watch's seats only while it initializes). A client that does not read is
 * not let keep a seat past the request's deadline (`--request-timeout`, kube's bound on a whole ServeHTTP).
 * `release` is called exactly once, whichever of these comes first.
 */
export function holdUntilAnswered(c: Context, watch: boolean, next: () => Promise<void>, giveBack: () => void): Promise<void> {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    giveBack();
  };
  /** Once answered: a streamed body keeps the seat until it ends; any other answer gives it back now. */
  const answered = () => {
    let handedOff = false;
    try {
      const res = c.res;
      // The length first: asking a node-server response for its body turns it into a full Response (it costs).
      if (!watch && contentLengthOf(res) === undefined && res.body) {
        const deadlineMs = (c.get as (key: string) => unknown)('deadlineMs') as number | undefined;
        const timer = deadlineMs === undefined ? undefined : setTimeout(release, deadlineMs).unref();
        c.res = new Response(
          onBodyEnd(res.body, () => {
            clearTimeout(timer);
            release();
          }),
          res,
        );
        handedOff = true;
      }
    } finally {
      if (!handedOff) release();
    }
  };
  let handled: Promise<void>;
  try {
    handled = next();
  } catch (err) {
    release();
    return Promise.reject(err);
  }
  // Chained rather than awaited: every request passes here.
  return handled.then(answered, (err: unknown) => {
    release();
    throw err;
  });
}
