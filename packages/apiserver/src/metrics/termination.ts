const terminations = new WeakSet<Response>();

/**
 * Marks an answer the server gave in self-defense (a 429 of the in-flight limits or the memory budget, a 504 of the
 * request timeout): the request metrics also count it in `apiserver_request_terminations_total`, as kube does,
 * apart from the same codes a handler answers with (an eviction's 429).
 */
export function terminated(res: Response): Response {
  terminations.add(res);
  return res;
}

export const isTermination = (res: Response): boolean => terminations.has(res);
