import type { AuthorizationAttributes } from '@kapi/apiserver';

/** Verbs that never cause watch events (kube's readOnlyVerbs). */
const READ_ONLY = new Set(['get', 'list', 'watch', 'proxy']);

const NOOP = () => {};

/**
 * The watches open on this server, by resource, namespace and name (kube's flowcontrol watchTracker): how many may
 * be interested in a write, for the write's work estimate. Selectors are not looked at (kube's neither): an event
 * is evaluated for every watch of its resource anyway.
 */
export class WatchTracker {
  private readonly counts = new Map<string, number>();

  /** Counts a watch; the function returned forgets it (once). */
  register(request: AuthorizationAttributes): () => void {
    if (request.verb !== 'watch' || !request.resourceRequest) return NOOP;
    const key = identifier(request.apiGroup, request.resource, request.namespace, request.name);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }

  /**
   * The watches a write may notify: those of the whole resource, of the write's namespace, and of the object itself
   * (a watch with `fieldSelector=metadata.name=...`). A create names no object (kube's neither).
   */
  interested(request: AuthorizationAttributes): number {
    if (!request.resourceRequest || READ_ONLY.has(request.verb)) return 0;
    const { apiGroup, resource, namespace, name } = request;
    let count = this.counts.get(identifier(apiGroup, resource, '', '')) ?? 0;
    if (namespace) count += this.counts.get(identifier(apiGroup, resource, namespace, '')) ?? 0;
    if (name) count += this.counts.get(identifier(apiGroup, resource, namespace, name)) ?? 0;
    return count;
  }
}

const identifier = (group: string, resource: string, namespace: string, name: string) => `${group}\u0000${resource}\u0000${namespace}\u0000${name}`;
