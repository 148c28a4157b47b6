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

/** kube's warning recorder writes at most this many characters of warnings (endpoints/respond.ts). */
export const WARNING_TOTAL_RUNES = 4 * 1024;
// Unicode's control characters (Go's unicode.IsControl): C0, DEL and C1.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A warning kube's NewWarningHeader accepts: not empty, no control characters. */
export const isRecordableWarning = (w: string): boolean => w.length > 0 && !CONTROL.test(w);

/**
 * The most recordable warnings that can reach the header: up to 4,096 before the recorder starts cutting them (each
 * has a character at least), and up to 4,096 after (each adds one at least). Later ones cannot change what is sent,
 * so they are not kept. A strategy whose warnings grow faster than its object (one per pair of items) stops making
 * them at this many: a hostile object whose warnings would run to millions costs nothing more.
 */
export const MAX_RECORDED_WARNINGS = 2 * WARNING_TOTAL_RUNES + 1;

/** What was recorded into a response's warnings: the texts, and how many of them can reach the header. */
const recorded = new WeakMap<string[], { seen: Set<string>; recordable: number }>();

/**
 * Records warnings for the response once each, as kube's warning recorder does: a write retried after losing a
 * compare-and-swap race runs the strategy (and a patch's field checks) again and must not repeat them.
 */
export function addWarnings(target: string[] | undefined, warnings: readonly string[] | undefined): void {
  if (!target || !warnings?.length) return;
  let state = recorded.get(target);
  if (!state) recorded.set(target, (state = { seen: new Set(target), recordable: target.filter(isRecordableWarning).length }));
  for (const w of warnings) {
    if (state.recordable >= MAX_RECORDED_WARNINGS) return;
    if (state.seen.has(w)) continue;
    state.seen.add(w);
    target.push(w);
    if (isRecordableWarning(w)) state.recordable++;
  }
}
