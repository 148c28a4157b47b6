import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';

/**
 * The server's filters as one hono layer. Between two filters it does what hono's compose does between two layers:
 * an answer a filter returns becomes `c.res` (unless an answer was set already), and an error a filter throws
 * becomes the error handler's answer at that filter, so the filters outside it see an answer, as they would in
 * their own layers. What it leaves out is the async function and the await hono's dispatch spends on every layer of
 * every request.
 */
export function filterChain(filters: readonly MiddlewareHandler[], onError: ErrorHandler): MiddlewareHandler {
  return (c, next) => {
    const step = (i: number): Promise<void> => {
      if (i === filters.length) return next();
      let answer: Promise<Response | void>;
      try {
        answer = filters[i](c, () => step(i + 1));
      } catch (err) {
        answer = Promise.reject(err);
      }
      return answer.then(
        (res) => {
          if (res && !c.finalized) c.res = res;
        },
        (err: unknown) => answerError(c, err, onError),
      );
    };
    return step(0);
  };
}

/** hono's handling of a layer's error: an Error is answered by the error handler; anything else goes on up. */
async function answerError(c: Context, err: unknown, onError: ErrorHandler): Promise<void> {
  if (!(err instanceof Error)) throw err;
  c.error = err;
  c.res = await onError(err, c);
}
