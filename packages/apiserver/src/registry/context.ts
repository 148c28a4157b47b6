import type { UserInfo } from '../admission/types.js';
import type { ResourceEntry } from './resources.js';
import { timedOut } from '../limits/timeout.js';

/** One request's target: the resource, the namespace from the URL, the caller, and the dry-run flag. */
export interface RequestContext {
  entry: ResourceEntry;
  /** Namespace from the URL ('' for cluster-scoped resources and all-namespace lists). */
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** '' for the main resource, or `status`, `scale`, ... */
  subresource: string;
  /** Where the strategy's warnings go (the `Warning` response header); undefined drops them. */
  warnings?: string[];
  /**
   * What the request's options say beyond dryRun, for admission (kube's CreateOptions, UpdateOptions or
   * DeleteOptions): `fieldManager` and `fieldValidation` of a write, the DeleteOptions of a delete.
   */
  options?: Record<string, unknown>;
  /**
   * Set on the writes a subresource action makes on behalf of a request admission has already judged (kube's
   * eviction and binding write to storage without admission): the Store does not run admission for them. Only
   * the server sets it; no request can.
   */
  admitted?: boolean;
  /** When the request times out (`--request-timeout` or its `?timeout=`); absent for long-running requests. */
  deadline?: RequestDeadline;
}

/** A request's deadline: the time (epoch ms) and the signal aborted (with the 504 StatusError) when it passes. */
export interface RequestDeadline {
  at: number;
  signal: AbortSignal;
  /** Whether the signal has fired, for deadlines that make their signal only when asked (then it is not asked). */
  readonly expired?: boolean;
}

/**
 * Throws the request's timeout when its deadline has passed (a write must not land after the client got 504; no
 * webhook is called for it): of a RequestContext, or of the AdmissionAttributes that carry it.
 */
export function checkDeadline(ctx: { deadline?: RequestDeadline }): void {
  const deadline = ctx.deadline;
  if (!deadline) return;
  // Past the time though the signal's timer has not run yet: a timer of the same moment (a webhook's timeout, which
  // is the time left) may run first.
  if (Date.now() >= deadline.at || aborted(deadline)) throw deadlineExceeded(deadline);
}

/** The error of a request past its deadline: the 504 Timeout the client gets. */
export function deadlineExceeded(deadline: RequestDeadline): unknown {
  return aborted(deadline) ? deadline.signal.reason : timedOut();
}

/** Whether the deadline's signal fired, without making a signal where none was asked for yet (limits/deadline.ts). */
const aborted = (deadline: RequestDeadline): boolean => deadline.expired ?? deadline.signal.aborted;

/**
 * Records warnings for the response once each, as kube's warning recorder does: a write retried after losing a
 * compare-and-swap race runs the strategy (and a patch's field checks) again and must not repeat them.
 */
export function addWarnings(target: string[] | undefined, warnings: readonly string[] | undefined): void {
  for (const w of warnings ?? []) if (target && !target.includes(w)) target.push(w);
}
